import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** One retailer e-mail the intake read (migration 0900): its evidence, kept with the order. */
export default class MailMessage extends BaseModel {
  static table = 'mail_messages'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare publicId: string

  @column()
  declare messageKey: string

  @column()
  declare messageId: string | null

  @column({ columnName: 'sha256' })
  declare sha256: string

  @column()
  declare door: string

  @column()
  declare sender: string | null

  @column()
  declare recipient: string | null

  @column()
  declare subject: string | null

  @column()
  declare retailer: string | null

  @column()
  declare kind: string

  @column()
  declare orderId: number | null

  @column()
  declare dkim: string

  @column()
  declare dkimDomain: string | null

  @column()
  declare action: string | null

  @column()
  declare reason: string | null

  @column()
  declare retailerOrderNumber: string | null

  @column()
  declare item: string | null

  @column()
  declare size: string | null

  @column()
  declare totalCents: number | null

  @column()
  declare trackingNumber: string | null

  @column({ serializeAs: null })
  declare rawSealed: string | null

  @column.dateTime()
  declare claimedAt: DateTime | null

  @column.dateTime()
  declare receivedAt: DateTime

  @column.dateTime()
  declare purgedAt: DateTime | null

  @column.dateTime()
  declare reviewedAt: DateTime | null

  @column()
  declare reviewedBy: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null
}
