import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One slot, every chance (docs/release-day.md, "Several retailers"): an order of a release with
 * retailers is tried at each retailer the buyer accepts whose price is within their cap, one
 * `release_tries` row per retailer and round, each its own task at the bot
 * (`task-{order}-{round}-{retailer}`). The order's `release_tasks` row stays the one record of
 * its outcome: the first success recorded there wins; the other tries are cancelled, and a later
 * success of one of them is `extra_success` (flagged, never charged).
 *
 * - `release_tasks.retailer`, `won_size`: where and in which size the recorded success was won;
 * - `orders.secured_retailer`, `secured_size`: the same on the order, for its page and e-mails.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('release_tries', (table) => {
      table.increments('id')
      table.integer('order_id').unsigned().notNullable().references('orders.id').onDelete('CASCADE')
      table.integer('round_number').unsigned().notNullable()
      table.string('retailer', 32).notNullable()
      table.integer('position').unsigned().notNullable()
      /** sending, sent, failed, won, cancelled, extra_success */
      table.string('status', 16).notNullable()
      table.string('size', 16).nullable()
      table.string('confirmation_number', 120).nullable()
      table.string('reason', 255).nullable()
      table.string('reason_code', 16).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['order_id', 'round_number', 'retailer'])
    })
    this.schema.alterTable('release_tasks', (table) => {
      table.string('retailer', 32).nullable()
      table.string('won_size', 16).nullable()
    })
    this.schema.alterTable('orders', (table) => {
      table.string('secured_retailer', 32).nullable()
      table.string('secured_size', 16).nullable()
    })
  }

  async down() {
    this.schema.alterTable('orders', (table) => {
      table.dropColumn('secured_retailer')
      table.dropColumn('secured_size')
    })
    this.schema.alterTable('release_tasks', (table) => {
      table.dropColumn('retailer')
      table.dropColumn('won_size')
    })
    this.schema.dropTable('release_tries')
  }
}
