import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `release_tasks.round_number`: which round of its order a task is (1, then 2, 3... each time a
 * failed order is tried again). The task id a checkout engine gets carries it
 * (`task-{orderPublicId}-{round}`), and a result for an older round is refused (`stale_round`).
 * Tasks of orders retried before this column existed take the order's hold round, which counted
 * the same retries.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('release_tasks', (table) => {
      table.integer('round_number').notNullable().defaultTo(1)
    })
    this.defer(async (db) => {
      await db.rawQuery(
        `UPDATE release_tasks SET round_number = (
           SELECT orders.hold_round FROM orders WHERE orders.id = release_tasks.order_id
         ) WHERE EXISTS (
           SELECT 1 FROM orders WHERE orders.id = release_tasks.order_id AND orders.hold_round > 1
         )`
      )
    })
  }

  async down() {
    this.schema.alterTable('release_tasks', (table) => {
      table.dropColumn('round_number')
    })
  }
}
