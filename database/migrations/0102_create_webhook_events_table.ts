import { BaseSchema } from '@adonisjs/lucid/schema'

/** Provider events already received: a redelivery of the same event id is acknowledged, not re-applied. */
export default class extends BaseSchema {
  protected tableName = 'webhook_events'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('provider', 16).notNullable()
      table.string('event_id', 120).notNullable()
      table.string('type', 80).notNullable()
      table.string('outcome', 32).nullable()
      table.timestamp('processed_at').nullable()
      table.timestamp('created_at').notNullable()
      table.unique(['provider', 'event_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
