import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Passkeys (WebAuthn) as a second factor (docs/security.md, "Staff sign-in"): each credential's id, public
 * key (COSE, base64url) and signature counter; the challenge of a passkey ceremony is kept on
 * the token that asked for it, for five minutes, and used once.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('passkeys', (table) => {
      table.increments('id')
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('credential_id', 512).notNullable().unique()
      table.text('public_key').notNullable()
      table.bigInteger('counter').notNullable().defaultTo(0)
      table.string('transports', 255).nullable()
      table.string('name', 64).notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('last_used_at').nullable()
    })
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.string('webauthn_challenge', 128).nullable()
      table.timestamp('webauthn_challenge_at').nullable()
    })
  }

  async down() {
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.dropColumn('webauthn_challenge')
      table.dropColumn('webauthn_challenge_at')
    })
    this.schema.dropTable('passkeys')
  }
}
