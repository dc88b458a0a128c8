import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `email_messages.kept_at`: when a message was kept in the console's mailbox instead of sent
 * (status `kept`: delivered by a process without SMTP, outside production).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('email_messages', (table) => {
      table.timestamp('kept_at').nullable()
    })
  }

  async down() {
    this.schema.alterTable('email_messages', (table) => {
      table.dropColumn('kept_at')
    })
  }
}
