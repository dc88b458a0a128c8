import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| One row per gateway call, written BEFORE the call with a fixed idempotency key
| (order:{id}:hold, order:{id}:fee, ...) and completed after it. The unique key is what makes a
| retry or a re-run reuse the same provider request instead of charging twice.
*/
export default class extends BaseSchema {
  protected tableName = 'payment_ledger'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('idempotency_key', 160).notNullable().unique()
      table.string('kind', 24).notNullable()
      table.string('gateway', 16).notNullable()
      table.integer('order_id').nullable().unsigned()
      table.integer('user_id').nullable().unsigned()
      table.integer('amount_cents').notNullable().defaultTo(0)
      table.string('currency', 3).notNullable().defaultTo('usd')
      // started -> succeeded | failed
      table.string('status', 16).notNullable().defaultTo('started')
      table.string('gateway_ref', 120).nullable()
      table.string('error_code', 64).nullable()
      table.string('error_message', 255).nullable()
      table.integer('attempts').notNullable().defaultTo(0)
      table.timestamp('completed_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['order_id'])
      table.index(['gateway_ref'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
