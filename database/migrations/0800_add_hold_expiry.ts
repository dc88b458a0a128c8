import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| Holds that never lapse in silence. An uncaptured authorization lives about 7 days (Stripe's
| `capture_before`): every placed hold records when it lapses (`hold_expires_at`) and when it is
| renewed (`hold_renew_at`: a new hold round placed, the old one released), so the sweep finds
| waiting orders due for a renewal by one indexed comparison. The sandbox gateway records the
| same time on its intents and lets a hold lapse at it.
|
| Holds placed before this migration are taken to lapse 7 days after they were placed.
*/
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('orders', (table) => {
      table.timestamp('hold_expires_at').nullable()
      table.timestamp('hold_renew_at').nullable()
      table.index(['hold_status', 'hold_renew_at'], 'orders_hold_renew_index')
    })
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.timestamp('capture_before').nullable()
    })
    this.defer(async (db) => {
      const mysql = db.dialect.name === 'mysql'
      const plus = (column: string, hours: number) =>
        mysql
          ? `DATE_ADD(${column}, INTERVAL ${hours} HOUR)`
          : `datetime(${column}, '+${hours} hours')`
      await db
        .from('orders')
        .where('hold_status', 'placed')
        .whereNotNull('hold_placed_at')
        .update({
          hold_expires_at: db.knexRawQuery(plus('hold_placed_at', 168)),
          hold_renew_at: db.knexRawQuery(plus('hold_placed_at', 144)),
        })
      await db
        .from('sandbox_payment_intents')
        .where('capture_method', 'manual')
        .update({ capture_before: db.knexRawQuery(plus('created_at', 168)) })
    })
  }

  async down() {
    this.schema.alterTable('orders', (table) => {
      table.dropIndex(['hold_status', 'hold_renew_at'], 'orders_hold_renew_index')
      table.dropColumn('hold_expires_at')
      table.dropColumn('hold_renew_at')
    })
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.dropColumn('capture_before')
    })
  }
}
