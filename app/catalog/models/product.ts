import { DateTime } from 'luxon'
import { BaseModel, column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import { booleanColumn, jsonColumn } from '#core/helpers/columns'
import ProductRetailer from '#catalog/models/product_retailer'

import type { ReleaseMode, SizeType } from '#shared/vocabulary'

export type { ReleaseMode, SizeType }

export default class Product extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare slug: string

  @column()
  declare title: string

  /** Who sells it (`nike`, `kith`...: the mail intake's retailers); its signed mail is the proof. */
  @column()
  declare retailer: string | null

  /** Every retailer it releases at, the first being `retailer` (loaded when a query asks). */
  @hasMany(() => ProductRetailer)
  declare retailers: HasMany<typeof ProductRetailer>

  @column()
  declare image: string

  @column()
  declare description: string | null

  @column()
  declare priceCents: number

  @column()
  declare sizeType: SizeType

  /** Comma-separated, as the spec's Product has it. */
  @column()
  declare styles: string

  /** Comma-separated brand tags (adidas, nike, shopify, kith). */
  @column()
  declare tags: string

  @column(jsonColumn)
  declare sizes: string[]

  @column(booleanColumn)
  declare avail: boolean

  @column()
  declare totalStock: number

  @column()
  declare stockTaken: number

  @column.dateTime()
  declare releaseAt: DateTime | null

  /** Restocks are tried until then after the drop (at most 7 days after `releaseAt`). */
  @column.dateTime()
  declare restockUntil: DateTime | null

  /** The IANA time zone the release is announced in. */
  @column()
  declare releaseTimeZone: string

  /** 'first-come' (the rush) or 'draw' (entries, then a verifiable draw). */
  @column()
  declare releaseMode: ReleaseMode

  @column.dateTime()
  declare entryOpensAt: DateTime | null

  @column.dateTime()
  declare entryClosesAt: DateTime | null

  /** A waiting room: slots go on sale at this time, and the line forms before it. */
  @column.dateTime()
  declare queueOpensAt: DateTime | null

  /** How long before `queueOpensAt` the line forms; null: no waiting room. */
  @column()
  declare queueMinutes: number | null

  /** How many customers the line lets through each minute. */
  @column()
  declare queueRatePerMinute: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  get styleList(): string[] {
    return splitList(this.styles)
  }

  get tagList(): string[] {
    return splitList(this.tags).map((tag) => tag.toLowerCase())
  }

  get isReleased(): boolean {
    return this.releaseAt !== null && this.releaseAt <= DateTime.now()
  }
}

/** The comma-separated lists of the spec's Product (styles, tags) as arrays. */
export function splitList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}
