import { randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { mailIntakeConfig } from '#config/mail_intake'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { orderQueries, type OrderRecord } from '#orders/services/order_queries'

/** Lower-case letters and digits without look-alikes: what a retailer's form always accepts. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** `ds-` and 10 random characters (about 49 bits): never guessable from the order. */
function newToken() {
  const bytes = randomBytes(10)
  let token = 'ds-'
  for (const byte of bytes) token += ALPHABET[byte % ALPHABET.length]
  return token
}

/**
 * Each order's own intake address (`ds-7k3q9x2m4p@in.dropslot.example`) when MAIL_INTAKE_DOMAIN
 * is set: a random token kept on the order the first time it is needed (the order's first
 * hand-over to a checkout bot, an export, the console), so the retailer writes to an address that
 * names this order and no other. Without the setting there is no address and nothing changes.
 */
export const orderMailAddress = {
  domain(): string | null {
    return mailIntakeConfig().domain
  },

  /** The address of a token already given out (null without MAIL_INTAKE_DOMAIN). */
  of(order: Pick<OrderRecord, 'mailToken'>): string | null {
    const domain = this.domain()
    return domain && order.mailToken ? `${order.mailToken}@${domain}` : null
  },

  /** The order's address, its token given out now if it has none yet. */
  async ensure(order: Pick<OrderRecord, 'id' | 'mailToken'>): Promise<string | null> {
    const domain = this.domain()
    if (!domain) return null
    if (order.mailToken) return `${order.mailToken}@${domain}`
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await db
          .from('orders')
          .where('id', order.id)
          .whereNull('mail_token')
          .update({ mail_token: newToken() })
        break
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
    }
    const row = await db.from('orders').where('id', order.id).select('mail_token').first()
    return row?.mail_token ? `${row.mail_token}@${domain}` : null
  },

  /** The order an intake address names (any domain part; the token decides), or null. */
  async findByAddress(address: string): Promise<OrderRecord | null> {
    const local = address.trim().toLowerCase().split('@')[0] ?? ''
    if (!/^ds-[a-z0-9]{6,20}$/.test(local)) return null
    const row = await db.from('orders').where('mail_token', local).select('id').first()
    return row ? orderQueries.find(Number(row.id)) : null
  },

  /** Does an intake address on the intake domain name an order? One indexed read, no order loaded. */
  async exists(address: string): Promise<boolean> {
    if (!this.isIntakeAddress(address)) return false
    const local = address.trim().toLowerCase().split('@')[0] ?? ''
    if (!/^ds-[a-z0-9]{6,20}$/.test(local)) return false
    const row = await db.from('orders').where('mail_token', local).select('id').first()
    return Boolean(row)
  },

  /** Is this address on the intake domain? */
  isIntakeAddress(address: string): boolean {
    const domain = this.domain()
    return Boolean(domain) && address.trim().toLowerCase().endsWith(`@${domain}`)
  },
}
