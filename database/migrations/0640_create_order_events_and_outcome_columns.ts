import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The order's timeline (`order_events`, written by the one outcome path and the money tools),
 * and what those tools need on the order and the result callbacks:
 * - `orders.fail_code`: the customer-facing category of a failure (sold_out, declined, address,
 *   other); `fail_reason` keeps the engine's own words for admins;
 * - `orders.hold_round`: 1, then 2, 3... each time a failed order is retried (a new $1.00 hold
 *   with its own idempotency key, and its own outcome e-mail);
 * - `orders.slot_returned`: the order gave its slot back when it ended (a retry takes one again);
 * - `checkout_result_events.response`: the answer given to a bot's delivery, given again to a
 *   replay;
 * - `release_tasks.reason_code`: the failure category a result came with.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('order_events', (table) => {
      table.increments('id')
      table.integer('order_id').unsigned().notNullable()
      table.string('kind', 32).notNullable()
      table.string('from_status', 16).nullable()
      table.string('to_status', 16).nullable()
      table.string('source', 32).nullable()
      table.string('actor_label', 254).nullable()
      table.string('note', 500).nullable()
      table.text('meta').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['order_id', 'id'])
    })
    this.schema.alterTable('orders', (table) => {
      table.string('fail_code', 16).nullable()
      table.integer('hold_round').notNullable().defaultTo(1)
      table.boolean('slot_returned').notNullable().defaultTo(false)
    })
    this.schema.alterTable('checkout_result_events', (table) => {
      table.text('response').nullable()
    })
    this.schema.alterTable('release_tasks', (table) => {
      table.string('reason_code', 16).nullable()
    })
  }

  async down() {
    this.schema.alterTable('release_tasks', (table) => {
      table.dropColumn('reason_code')
    })
    this.schema.alterTable('checkout_result_events', (table) => {
      table.dropColumn('response')
    })
    this.schema.alterTable('orders', (table) => {
      table.dropColumn('fail_code')
      table.dropColumn('hold_round')
      table.dropColumn('slot_returned')
    })
    this.schema.dropTable('order_events')
  }
}
