import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** One retailer a product releases at; `position` 0 is the product's own `retailer`. */
export default class ProductRetailer extends BaseModel {
  static table = 'product_retailers'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare productId: number

  @column()
  declare position: number

  /** A retailer id of `RETAILERS` (`kith`, `newbalance`...). */
  @column()
  declare retailer: string

  /** Null: the product's release time. */
  @column.dateTime()
  declare releaseAt: DateTime | null

  /** The retail price in cents, shipping included when known; null when not known. */
  @column()
  declare priceCents: number | null

  @column()
  declare url: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null
}
