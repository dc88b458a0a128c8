import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { randomUUID } from 'node:crypto'
import { ACTIVE_ORDER_STATUSES, type FeeStatus, type OrderStatus } from '#shared/vocabulary'

export type { FeeStatus, OrderStatus }

export const ACTIVE_STATUSES = ACTIVE_ORDER_STATUSES

/**
 * queued -> placing -> placed -> released; or declined; `skipped` when cancelled before placing;
 * `requires_action` while the bank waits for the customer's 3-D Secure (until a deadline).
 */
export type HoldStatus =
  'queued' | 'placing' | 'placed' | 'declined' | 'released' | 'skipped' | 'requires_action'

export default class Order extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare publicId: string

  @column()
  declare userId: number

  @column()
  declare productId: number

  @column()
  declare profileId: string

  @column()
  declare productTitle: string

  @column()
  declare basePriceCents: number

  @column()
  declare priceCents: number

  @column()
  declare promoCode: string | null

  @column()
  declare promoPercent: number | null

  @column()
  declare style: string

  @column()
  declare size: string

  /** The sizes to try in order as a JSON array (its first is `size`); null: only `size`. */
  @column()
  declare sizeLadder: string | null

  /** The retailer keys the buyer accepts as a JSON array; null: every retailer of the release. */
  @column()
  declare retailerChoice: string | null

  /** The most the buyer pays the retailer for the item with shipping; null: no cap. */
  @column()
  declare maxItemPriceCents: number | null

  /** Where the slot was won (a retailer key) and in which size; null until then. */
  @column()
  declare securedRetailer: string | null

  @column()
  declare securedSize: string | null

  @column()
  declare email: string

  @column()
  declare name: string

  @column()
  declare status: OrderStatus

  @column()
  declare activeSlot: number | null

  @column({ serializeAs: null })
  declare acoVault: string | null

  @column()
  declare confirmationNumber: string | null

  /** The order's own intake address's token (`<token>@MAIL_INTAKE_DOMAIN`), once given out. */
  @column()
  declare mailToken: string | null

  @column()
  declare failReason: string | null

  /** The customer-facing category of a failure (see `failureCategories`). */
  @column()
  declare failCode: string | null

  /** 1, then one more each time a failed order is retried (a new hold, its own e-mails). */
  @column()
  declare holdRound: number

  /** The order gave its slot back when it ended; a retry must take one again. */
  @column({ consume: (value) => Boolean(value) })
  declare slotReturned: boolean

  @column.dateTime()
  declare processingAt: DateTime | null

  @column.dateTime()
  declare succeededAt: DateTime | null

  @column.dateTime()
  declare failedAt: DateTime | null

  @column.dateTime()
  declare cancelledAt: DateTime | null

  @column()
  declare holdStatus: HoldStatus

  @column()
  declare holdAmountCents: number

  @column()
  declare holdAttempts: number

  @column.dateTime()
  declare holdClaimedAt: DateTime | null

  @column.dateTime()
  declare holdNextAttemptAt: DateTime | null

  @column()
  declare holdPaymentId: string | null

  @column()
  declare holdErrorCode: string | null

  @column.dateTime()
  declare holdPlacedAt: DateTime | null

  @column.dateTime()
  declare holdReleasedAt: DateTime | null

  /** When the placed hold's authorization lapses (the gateway's `capture_before`). */
  @column.dateTime()
  declare holdExpiresAt: DateTime | null

  /** When a waiting order's hold is renewed: a new round placed before the old one lapses. */
  @column.dateTime()
  declare holdRenewAt: DateTime | null

  @column()
  declare feeStatus: FeeStatus

  @column()
  declare feePaymentId: string | null

  @column()
  declare feeErrorCode: string | null

  @column()
  declare feeAttempts: number

  @column.dateTime()
  declare feeChargedAt: DateTime | null

  @column()
  declare refundedCents: number

  @column.dateTime()
  declare refundedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  @beforeCreate()
  static assignPublicId(order: Order) {
    order.publicId ??= randomUUID()
  }
}
