import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Staff roles and sessions (docs/security.md, "Staff sign-in"):
 * - every `admin` becomes an `owner` (the roles are owner, finance, support, viewer);
 * - `auth_access_tokens.ip` and `user_agent`: where a staff session was opened from, for the list
 *   of sessions a staff member sees and ends; staff tokens are named `staff` (they end after 15
 *   minutes without a request), those already issued included;
 * - `sign_in_failures`: failed sign-ins per e-mail address (its SHA-256, whether or not an account
 *   has it, so a lockout says nothing about which accounts exist): ten lock it for 30 minutes.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.string('ip', 64).nullable()
      table.string('user_agent', 255).nullable()
    })
    this.schema.createTable('sign_in_failures', (table) => {
      table.string('email_hash', 64).primary()
      table.integer('failures').unsigned().notNullable()
      table.timestamp('first_failed_at').notNullable()
      table.timestamp('locked_until').nullable()
    })
    this.defer(async (db) => {
      await db.from('users').where('role', 'admin').update({ role: 'owner' })
      await db
        .from('auth_access_tokens')
        .whereIn(
          'tokenable_id',
          db.from('users').whereIn('role', ['owner', 'finance', 'support', 'viewer']).select('id')
        )
        .update({ name: 'staff' })
    })
  }

  async down() {
    this.defer(async (db) => {
      await db
        .from('users')
        .whereIn('role', ['owner', 'finance', 'support', 'viewer'])
        .update({ role: 'admin' })
    })
    this.schema.dropTable('sign_in_failures')
    this.schema.alterTable('auth_access_tokens', (table) => {
      table.dropColumn('ip')
      table.dropColumn('user_agent')
    })
  }
}
