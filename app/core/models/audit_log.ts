import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonColumn } from '#core/helpers/columns'

export default class AuditLog extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare actorUserId: number | null

  @column()
  declare actorLabel: string | null

  @column()
  declare action: string

  @column()
  declare subjectType: string | null

  @column()
  declare subjectId: string | null

  @column()
  declare reason: string | null

  @column(jsonColumn)
  declare meta: Record<string, unknown> | null

  @column()
  declare ip: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
