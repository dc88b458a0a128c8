import { DateTime } from 'luxon'
import hash from '@adonisjs/core/services/hash'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { withAuthFinder } from '@adonisjs/auth/mixins/lucid'
import { AccessTokensProvider } from '#accounts/services/access_tokens_provider'
import { randomUUID } from 'node:crypto'
import { jsonColumn } from '#core/helpers/columns'
import { accessTokenTtl } from '#config/tokens'
import { type AccountRole, isStaffRole } from '#shared/staff_roles'

export type BillingAddress = {
  line1: string
  line2: string | null
  city: string
  postal_code: string
  state: string
  country: string
}

export type Role = AccountRole

const AuthFinder = withAuthFinder(() => hash.use('scrypt'), {
  uids: ['email'],
  passwordColumnName: 'password',
})

export default class User extends compose(BaseModel, AuthFinder) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare uuid: string

  @column()
  declare email: string

  @column({ serializeAs: null })
  declare password: string

  @column()
  declare name: string

  @column()
  declare firstName: string | null

  @column()
  declare lastName: string | null

  @column()
  declare phone: string | null

  @column()
  declare role: Role

  @column(jsonColumn)
  declare billingAddress: BillingAddress | null

  @column()
  declare adToken: string | null

  @column()
  declare gatewayCustomerId: string | null

  @column()
  declare cardPaymentMethodId: string | null

  @column()
  declare cardBrand: string | null

  @column({ columnName: 'card_last4' })
  declare cardLast4: string | null

  /** The gateway's fingerprint of the card on file (one per card number, never the number). */
  @column()
  declare cardFingerprint: string | null

  @column()
  declare cardExpMonth: number | null

  @column()
  declare cardExpYear: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime | null

  /** When the account's authenticator was proved by a first code (null: no second factor). */
  @column.dateTime({ serializeAs: null })
  declare totpConfirmedAt: DateTime | null

  /** Set when the customer deleted the account (the row stays, emptied, for its orders). */
  @column.dateTime()
  declare deletedAt: DateTime | null

  @beforeCreate()
  static assignUuid(user: User) {
    user.uuid ??= randomUUID()
    user.role ??= 'customer'
  }

  /** Owner, finance, support or viewer: signs in with a second factor and works the console. */
  get isStaff() {
    return isStaffRole(this.role)
  }

  static accessTokens = AccessTokensProvider.forModel(User, {
    expiresIn: accessTokenTtl,
    prefix: 'oat_',
    table: 'auth_access_tokens',
    type: 'auth_token',
    tokenSecretLength: 40,
  })
}
