import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { randomUUID } from 'node:crypto'

export type OrderStatus = 'pending' | 'processing' | 'success' | 'fail' | 'cancelled'

export const ACTIVE_STATUSES: OrderStatus[] = ['pending', 'processing', 'success']

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

  @column()
  declare failReason: string | null

  @column.dateTime()
  declare processingAt: DateTime | null

  @column.dateTime()
  declare succeededAt: DateTime | null

  @column.dateTime()
  declare failedAt: DateTime | null

  @column.dateTime()
  declare cancelledAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  @beforeCreate()
  static assignPublicId(order: Order) {
    order.publicId ??= randomUUID()
  }
}
