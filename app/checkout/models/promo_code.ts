import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { booleanColumn } from '#core/helpers/columns'

export default class PromoCode extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare code: string

  @column()
  declare percent: number

  @column.dateTime()
  declare startsAt: DateTime | null

  @column.dateTime()
  declare expiresAt: DateTime | null

  @column()
  declare maxUses: number | null

  @column()
  declare uses: number

  @column(booleanColumn)
  declare active: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  isUsableAt(now: DateTime): boolean {
    if (!this.active) return false
    if (this.startsAt && this.startsAt > now) return false
    if (this.expiresAt && this.expiresAt <= now) return false
    if (this.maxUses !== null && this.uses >= this.maxUses) return false
    return true
  }
}
