/*
| Who on the staff may do what: one table the server's policies and the console both read, so the
| console hides exactly what the API would refuse (403 `forbidden_for_role`).
*/

export const STAFF_ROLES = ['owner', 'finance', 'support', 'viewer'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]
export type AccountRole = 'customer' | StaffRole

export const ACCOUNT_ROLES: readonly AccountRole[] = ['customer', ...STAFF_ROLES]

export const ROLE_LABELS: Record<AccountRole, string> = {
  customer: 'Customer',
  owner: 'Owner (everything, manages staff)',
  finance: 'Finance (refunds, waivers, corrections, retries)',
  support: 'Support (orders, customers, e-mails, mark with evidence)',
  viewer: 'Viewer (read only)',
}

/**
 * Each permission and the roles that hold it. The owner holds every one.
 * - `read`: every page and list of the console that only reads;
 * - `orders`: place an order for a customer, cancel one, resend e-mails;
 * - `mark`: set an order's result on evidence (mark, assign or dismiss a retailer e-mail);
 * - `money`: refund, waive a fee, correct a success to failed, retry a failed order;
 * - `customers`: change a customer's details or delete their account;
 * - `catalog`: products, promo codes;
 * - `release`: run a release or a draw, retry or discard background jobs;
 * - `exports`: the newsletter list's CSV;
 * - `cards`: reveal card data (the ACO export);
 * - `staff`: change anyone's role, see and end anyone's sessions;
 * - `vault`: rotate the vault's keys.
 */
export const PERMISSIONS = {
  read: ['owner', 'finance', 'support', 'viewer'],
  orders: ['owner', 'support'],
  mark: ['owner', 'support'],
  money: ['owner', 'finance'],
  customers: ['owner', 'support'],
  catalog: ['owner'],
  release: ['owner'],
  exports: ['owner'],
  cards: ['owner'],
  staff: ['owner'],
  vault: ['owner'],
} as const satisfies Record<string, readonly StaffRole[]>

export type Permission = keyof typeof PERMISSIONS

/** Permissions that also need a factor presented within the last five minutes. */
export const STEP_UP_PERMISSIONS: readonly Permission[] = ['cards', 'staff', 'vault']
export const STEP_UP_WINDOW_MS = 5 * 60_000
/** A refund (or a correction that refunds) above this many cents needs a fresh factor too. */
export const STEP_UP_REFUND_ABOVE_CENTS = 5_000

/** A staff session ends after this long without a request (PCI DSS 8.2.8). */
export const STAFF_IDLE_MS = 15 * 60_000

export function isStaffRole(role: unknown): role is StaffRole {
  return (STAFF_ROLES as readonly unknown[]).includes(role)
}

export function roleCan(role: unknown, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly unknown[]).includes(role)
}
