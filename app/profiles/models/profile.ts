import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { randomUUID } from 'node:crypto'
import { jsonColumn } from '#core/helpers/columns'

export type Address = {
  address1: string
  address2: string
  firstName: string
  lastName: string
  city: string
  zip: string
  state: string
  country: string
}

/** The full card; lives only inside the vault (`cardVault` column) and the audited export. */
export type VaultedCard = {
  name: string
  number: string
  code: string
  month: string
  year: string
  cardType: string
}

export default class Profile extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare publicId: string

  @column()
  declare userId: number

  @column()
  declare profileName: string

  @column()
  declare email: string

  @column()
  declare phone: string

  @column(jsonColumn)
  declare shipping: Address

  @column(jsonColumn)
  declare billing: Address

  @column({ serializeAs: null })
  declare cardVault: string

  @column()
  declare cardName: string | null

  @column()
  declare cardBrand: string

  @column({ columnName: 'card_last4' })
  declare cardLast4: string

  @column()
  declare cardExpMonth: number

  @column()
  declare cardExpYear: number

  /** When the card's security code was last entered; null once it has been deleted. */
  @column.dateTime()
  declare cardCodeAt: DateTime | null

  /** The customer chose to keep the security code for later releases. */
  @column({ consume: (value) => Boolean(value) })
  declare keepCardCode: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  @beforeCreate()
  static assignPublicId(profile: Profile) {
    profile.publicId ??= randomUUID()
  }
}
