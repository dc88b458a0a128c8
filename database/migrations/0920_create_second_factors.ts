import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Second factors (docs/security.md, "Staff sign-in"):
 * - `users.totp_secret_sealed`: the account's TOTP secret (RFC 6238), sealed by the vault; set
 *   at enrolment, `totp_confirmed_at` once a first code proved the authenticator holds it;
 * - `users.totp_last_counter`: the 30-second step of the last code accepted, so a code is used
 *   once (a replay within its window is refused by one conditional update);
 * - `recovery_codes`: one-time codes for a lost device, only their SHA-256 kept;
 * - `auth_access_tokens.factor_at`: when the token's holder last presented a factor. A staff
 *   account's password alone gets a token whose abilities are `["second-factor"]`: only the
 *   factor routes take it, until a factor makes it a full token (`["*"]`).
 * Staff tokens issued before this migration came from a password alone: they are revoked, so
 * every staff member signs in again through the second factor.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.text('totp_secret_sealed').nullable()
      table.timestamp('totp_confirmed_at').nullable()
      table.bigInteger('totp_last_counter').nullable()
    })
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.timestamp('factor_at').nullable()
    })
    this.schema.createTable('recovery_codes', (table) => {
      table.increments('id')
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('code_hash', 64).notNullable().unique()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
    })
    this.defer(async (db) => {
      await db
        .from('auth_access_tokens')
        .whereIn('tokenable_id', db.from('users').where('role', 'admin').select('id'))
        .delete()
    })
  }

  async down() {
    this.schema.dropTable('recovery_codes')
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.dropColumn('factor_at')
    })
    this.schema.alterTable('users', (table) => {
      table.dropColumn('totp_secret_sealed')
      table.dropColumn('totp_confirmed_at')
      table.dropColumn('totp_last_counter')
    })
  }
}
