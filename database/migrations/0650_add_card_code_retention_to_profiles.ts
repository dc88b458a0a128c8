import { BaseSchema } from '@adonisjs/lucid/schema'
import { sqlTime } from '#core/helpers/sql_time'

/**
 * A profile's card security code is kept only while it is needed:
 * - `card_code_at`: when the code was last entered (null once it has been deleted);
 * - `keep_card_code`: the customer chose to keep it for later releases.
 * The retention job deletes the code of profiles that keep no choice, have no active order
 * and were given their code longer ago than the retention (CARD_CODE_RETENTION_HOURS).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('profiles', (table) => {
      table.timestamp('card_code_at').nullable()
      table.boolean('keep_card_code').notNullable().defaultTo(false)
      table.index(['card_code_at'])
    })
    this.defer(async (db) => {
      await db.from('profiles').update({ card_code_at: sqlTime() })
    })
  }

  async down() {
    this.schema.alterTable('profiles', (table) => {
      table.dropIndex(['card_code_at'])
      table.dropColumn('card_code_at')
      table.dropColumn('keep_card_code')
    })
  }
}
