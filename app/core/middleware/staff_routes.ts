import type { Permission } from '#shared/staff_roles'

/*
| The permission every staff route needs, by route name, in one table an auditor can read. A GET
| that is not listed only reads (`read`, every staff role); anything else that is not listed is
| the owner's alone. tests/functional/admin/role_guard.spec.ts walks the router: every route that
| writes must be listed here, and each role is tried against each route.
*/
export const STAFF_ROUTE_PERMISSIONS: Record<string, Permission> = {
  // GETs that do more than read.
  'admin.orders.resendEmail': 'orders',
  'admin.orders.resendAll': 'orders',
  'admin.aco.getJSON': 'cards',
  'admin.subscribers.export': 'exports',

  'admin.products.specCreate': 'catalog',
  'admin.products.specEdit': 'catalog',
  'admin.products.specDestroy': 'catalog',
  'admin.products.store': 'catalog',
  'admin.products.update': 'catalog',
  'admin.products.destroy': 'catalog',
  'admin.promoCodes.store': 'catalog',
  'admin.promoCodes.update': 'catalog',
  'admin.promoCodes.destroy': 'catalog',

  'admin.orders.specCreate': 'orders',
  'admin.orders.store': 'orders',
  'admin.orders.specDestroy': 'orders',
  'admin.orders.destroy': 'orders',
  'admin.orders.mark': 'mark',
  'admin.mail.assign': 'mark',
  'admin.mail.dismiss': 'mark',
  'admin.orders.refund': 'money',
  'admin.orders.waiveFee': 'money',
  'admin.orders.retry': 'money',
  'admin.orders.correct': 'money',

  'admin.customers.update': 'customers',
  'admin.customers.destroy': 'customers',
  'admin.subscribers.destroy': 'customers',

  'admin.releaseRuns.store': 'release',
  'admin.draws.run': 'release',
  'admin.queues.retry': 'release',
  'admin.queues.discard': 'release',

  'admin.sessions.revoke': 'read',
}

/** What a route needs: its entry above, `read` for an unlisted GET, the owner's otherwise. */
export function permissionForRoute(name: string | undefined, method: string): Permission {
  const listed = name ? STAFF_ROUTE_PERMISSIONS[name] : undefined
  if (listed) return listed
  return method === 'GET' || method === 'HEAD' ? 'read' : 'staff'
}
