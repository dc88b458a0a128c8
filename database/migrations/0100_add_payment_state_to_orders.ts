import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| Payment state of an order. The hold columns are also the durable queue of the hold worker:
| `hold_status` moves queued -> placing -> placed | declined -> released, a claim is a conditional
| UPDATE that stamps `hold_claimed_at`, and a claim left stale by a crash is picked up again.
*/
export default class extends BaseSchema {
  protected tableName = 'orders'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.string('hold_status', 16).notNullable().defaultTo('queued')
      table.integer('hold_amount_cents').notNullable().defaultTo(100)
      table.integer('hold_attempts').notNullable().defaultTo(0)
      table.timestamp('hold_claimed_at').nullable()
      table.timestamp('hold_next_attempt_at').nullable()
      table.string('hold_payment_id', 120).nullable()
      table.string('hold_error_code', 64).nullable()
      table.timestamp('hold_placed_at').nullable()
      table.timestamp('hold_released_at').nullable()
      table.string('fee_status', 16).notNullable().defaultTo('none')
      table.string('fee_payment_id', 120).nullable()
      table.string('fee_error_code', 64).nullable()
      table.integer('fee_attempts').notNullable().defaultTo(0)
      table.timestamp('fee_charged_at').nullable()
      table.integer('refunded_cents').notNullable().defaultTo(0)
      table.timestamp('refunded_at').nullable()
      table.index(['hold_status', 'hold_next_attempt_at'])
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropIndex(['hold_status', 'hold_next_attempt_at'])
      for (const column of [
        'hold_status',
        'hold_amount_cents',
        'hold_attempts',
        'hold_claimed_at',
        'hold_next_attempt_at',
        'hold_payment_id',
        'hold_error_code',
        'hold_placed_at',
        'hold_released_at',
        'fee_status',
        'fee_payment_id',
        'fee_error_code',
        'fee_attempts',
        'fee_charged_at',
        'refunded_cents',
        'refunded_at',
      ]) {
        table.dropColumn(column)
      }
    })
  }
}
