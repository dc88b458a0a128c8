import type { HttpContext } from '@adonisjs/core/http'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AuditLog from '#core/models/audit_log'
import { passesLuhn } from '#core/helpers/cards'

export type AuditActor = { id?: number | null; email?: string | null; label?: string | null }

export type AuditEntry = {
  /** Who did it: a user (admin), or a label for cron/CLI ("cron", "cli:ops@host"). */
  actor?: AuditActor | null
  /** What happened, dotted: `product.create`, `order.aco_export`, `customer.update`... */
  action: string
  subjectType?: string | null
  subjectId?: string | number | null
  /** Why (required by callers that reveal card data, like the ACO export). */
  reason?: string | null
  meta?: Record<string, unknown> | null
  ip?: string | null
  /** The browser or program that made the request (kept in `meta.agent`). */
  agent?: string | null
  /** Write inside the caller's transaction, so the record and the change land together. */
  client?: TransactionClientContract
}

/** Keys whose values never belong in an audit record. */
const SECRET_KEYS = new Set(
  [
    'password',
    'confirmpassword',
    'cardnumber',
    'number',
    'cvv',
    'cvc',
    'code',
    'card',
    'cardvault',
    'acovault',
    'acodatapayload',
    'eprofile',
    'encrypted',
    'stripetoken',
    'token',
  ].map((key) => key.toLowerCase())
)

/** Keys that look like the secrets above but are safe and useful (`promoCode`, `status`...). */
const SAFE_KEYS = new Set(['promocode', 'statuscode', 'ordernumber', 'confirmationnumber'])

function redact(value: unknown, depth = 0): unknown {
  if (depth > 5) return '[nested]'
  if (typeof value === 'string') {
    // A card number that slipped into a free-text field is masked to its last 4 digits.
    return value.replace(/\b(?:\d[ -]?){12,18}\d\b/g, (match) => {
      const digits = match.replace(/[ -]/g, '')
      return passesLuhn(digits) ? `**** ${digits.slice(-4)}` : match
    })
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      const lower = key.toLowerCase()
      result[key] =
        SECRET_KEYS.has(lower) && !SAFE_KEYS.has(lower) ? '[redacted]' : redact(item, depth + 1)
    }
    return result
  }
  return value
}

function metaOf(entry: AuditEntry): Record<string, unknown> | null {
  const meta = entry.meta ? (redact(entry.meta) as Record<string, unknown>) : null
  if (!entry.agent) return meta
  return { ...meta, agent: (redact(entry.agent) as string).slice(0, 255) }
}

/**
 * The audit log: who did what to which record, when, from where and why. Admin writes, role
 * changes and every reveal of card data (ACO export) are recorded here. Entries are never
 * edited or deleted through the API.
 */
export class AuditLogService {
  async record(entry: AuditEntry): Promise<AuditLog> {
    const actor = entry.actor ?? null
    return AuditLog.create(
      {
        actorUserId: actor?.id ?? null,
        actorLabel: (actor?.email ?? actor?.label ?? 'system').slice(0, 254),
        action: entry.action.slice(0, 64),
        subjectType: entry.subjectType?.slice(0, 32) ?? null,
        subjectId:
          entry.subjectId === undefined || entry.subjectId === null
            ? null
            : String(entry.subjectId).slice(0, 64),
        reason: entry.reason ? (redact(entry.reason) as string).slice(0, 500) : null,
        meta: metaOf(entry),
        ip: entry.ip?.slice(0, 64) ?? null,
      },
      entry.client ? { client: entry.client } : undefined
    )
  }

  /** Actor, address and browser of an HTTP request, to spread into `record`. */
  fromRequest(
    ctx: Pick<HttpContext, 'auth' | 'request'>
  ): Pick<AuditEntry, 'actor' | 'ip' | 'agent'> {
    const user = ctx.auth.user
    return {
      actor: user ? { id: user.id, email: user.email } : null,
      ip: ctx.request.ip(),
      agent: ctx.request.header('user-agent') ?? null,
    }
  }
}

export const auditLog = new AuditLogService()
