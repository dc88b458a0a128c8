import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/**
 * queued: waiting for a process to deliver it; recorded: only on rows written before
 * every message was queued (nothing writes it now);
 * sending: claimed by a worker; sent; failed: gave up after the last attempt;
 * kept: delivered by a process without SMTP outside production to the console's mailbox, never
 * sent (`kept_at`).
 */
export type EmailStatus = 'recorded' | 'queued' | 'sending' | 'sent' | 'failed' | 'kept'

export default class EmailMessage extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare toAddress: string

  @column()
  declare template: string

  @column()
  declare subject: string

  @column()
  declare textBody: string

  @column()
  declare htmlBody: string | null

  @column()
  declare userId: number | null

  @column()
  declare orderId: number | null

  @column()
  declare dedupeKey: string | null

  @column()
  declare status: EmailStatus

  @column()
  declare attempts: number

  @column()
  declare lastError: string | null

  @column.dateTime()
  declare nextAttemptAt: DateTime | null

  @column.dateTime()
  declare sentAt: DateTime | null

  /** When it was kept in the console's mailbox (status `kept`). */
  @column.dateTime()
  declare keptAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null
}
