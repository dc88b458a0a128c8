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
    return promoUsableAt(this, now)
  }
}

/** Whether a promo code can be used at `now`: active, started, not expired, uses left. */
export function promoUsableAt(
  promo: Pick<PromoCode, 'active' | 'startsAt' | 'expiresAt' | 'maxUses' | 'uses'>,
  now: DateTime
): boolean {
  if (!promo.active) return false
  if (promo.startsAt && promo.startsAt > now) return false
  if (promo.expiresAt && promo.expiresAt <= now) return false
  if (promo.maxUses !== null && promo.uses >= promo.maxUses) return false
  return true
}
