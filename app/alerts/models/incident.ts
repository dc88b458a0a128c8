import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export type IncidentStatus = 'open' | 'resolved'

/** One incident of an alert rule and subject, from its opening to its resolution. */
export default class Incident extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare rule: string

  @column()
  declare subject: string

  /** `rule:subject` while open (unique: one open incident per rule and subject), then NULL. */
  @column()
  declare openKey: string | null

  @column()
  declare status: IncidentStatus

  @column()
  declare title: string

  @column()
  declare detail: string | null

  @column()
  declare value: number | null

  @column()
  declare threshold: number | null

  @column.dateTime()
  declare openedAt: DateTime

  @column.dateTime()
  declare lastSeenAt: DateTime

  @column.dateTime()
  declare resolvedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null
}
