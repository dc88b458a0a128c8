import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'audit_logs'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.integer('actor_user_id').nullable().unsigned()
      table.string('actor_label', 254).nullable()
      table.string('action', 64).notNullable()
      table.string('subject_type', 32).nullable()
      table.string('subject_id', 64).nullable()
      table.string('reason', 500).nullable()
      table.text('meta').nullable()
      table.string('ip', 64).nullable()
      table.timestamp('created_at').notNullable()
      table.index(['subject_type', 'subject_id'])
      table.index(['created_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
