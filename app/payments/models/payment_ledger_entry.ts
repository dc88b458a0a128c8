import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export type LedgerKind =
  'customer_card' | 'customer_delete' | 'hold' | 'hold_release' | 'fee' | 'refund'

export type LedgerStatus = 'started' | 'succeeded' | 'failed'

export default class PaymentLedgerEntry extends BaseModel {
  static table = 'payment_ledger'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare idempotencyKey: string

  @column()
  declare kind: LedgerKind

  @column()
  declare gateway: string

  @column()
  declare orderId: number | null

  @column()
  declare userId: number | null

  @column()
  declare amountCents: number

  @column()
  declare currency: string

  @column()
  declare status: LedgerStatus

  @column()
  declare gatewayRef: string | null

  @column()
  declare errorCode: string | null

  @column()
  declare errorMessage: string | null

  @column()
  declare attempts: number

  @column.dateTime()
  declare completedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null
}
