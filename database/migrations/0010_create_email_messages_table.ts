import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'email_messages'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('to_address', 254).notNullable()
      table.string('template', 48).notNullable()
      table.string('subject', 200).notNullable()
      table.text('text_body').notNullable()
      table.text('html_body').nullable()
      table.integer('user_id').nullable().unsigned()
      table.integer('order_id').nullable().unsigned()
      // Makes "send this once" safe to retry: a second enqueue with the same key is a no-op.
      table.string('dedupe_key', 120).nullable().unique()
      table.string('status', 16).notNullable().defaultTo('queued')
      table.integer('attempts').notNullable().defaultTo(0)
      table.string('last_error', 500).nullable()
      table.timestamp('next_attempt_at').nullable()
      table.timestamp('sent_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['status', 'next_attempt_at'])
      table.index(['order_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
