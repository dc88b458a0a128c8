import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The retailer's own e-mail as the proof of an order's outcome (docs/architecture.md, mail):
 * - `orders.mail_token`: the order's own intake address (`<token>@MAIL_INTAKE_DOMAIN`), random
 *   and unique, given out the first time the order is handed to a checkout bot or exported;
 * - `orders.status` holds `retailer_cancelled` (18 characters: the column and the timeline's
 *   `order_events.from_status`/`to_status` are widened on MariaDB/MySQL; SQLite does not enforce
 *   a string's length);
 * - `products.retailer`: who sells the product (`nike`, `adidas`, `footlocker`, `kith`,
 *   `palace`, `union`): only that retailer's signed mail moves the money of its orders;
 * - `mail_messages`: every message the intake read, once (`message_key` unique: the signed
 *   Message-ID, or the Message-ID and the raw message's hash when unsigned), with its evidence
 *   kept for good (SHA-256, sender, DKIM result, kind, what it did) and the raw message sealed by
 *   the vault until MAIL_RETENTION_DAYS have passed;
 * - `mail_intake_state`: one row per door (imap, smtp) with its last good read and last error,
 *   for the dashboard, /health and the alert on a mailbox nobody can read.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('orders', (table) => {
      table.string('mail_token', 24).nullable().unique()
    })
    if (this.db.dialect.name === 'mysql') {
      this.schema.raw("ALTER TABLE orders MODIFY status VARCHAR(24) NOT NULL DEFAULT 'pending'")
      this.schema.raw(
        'ALTER TABLE order_events MODIFY from_status VARCHAR(24) NULL, MODIFY to_status VARCHAR(24) NULL'
      )
    }
    this.schema.alterTable('products', (table) => {
      table.string('retailer', 32).nullable()
    })
    this.schema.createTable('mail_messages', (table) => {
      table.increments('id')
      table.string('public_id', 36).notNullable().unique()
      table.string('message_key', 191).notNullable().unique()
      table.string('message_id', 255).nullable()
      table.string('sha256', 64).notNullable()
      table.string('door', 8).notNullable()
      table.string('sender', 255).nullable()
      table.string('recipient', 255).nullable()
      table.string('subject', 255).nullable()
      table.string('retailer', 32).nullable()
      table.string('kind', 16).notNullable()
      table.integer('order_id').unsigned().nullable().references('id').inTable('orders')
      table.string('dkim', 8).notNullable()
      table.string('dkim_domain', 255).nullable()
      table.string('action', 16).nullable()
      table.string('reason', 255).nullable()
      table.string('retailer_order_number', 120).nullable()
      table.string('item', 255).nullable()
      table.string('size', 32).nullable()
      table.integer('total_cents').nullable()
      table.string('tracking_number', 120).nullable()
      table.text('raw_sealed', 'mediumtext').nullable()
      table.timestamp('claimed_at').nullable()
      table.timestamp('received_at').notNullable()
      table.timestamp('purged_at').nullable()
      table.timestamp('reviewed_at').nullable()
      table.string('reviewed_by', 255).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['order_id'])
      table.index(['action', 'received_at'])
      table.index(['received_at'])
    })
    this.schema.createTable('mail_intake_state', (table) => {
      table.string('door', 8).primary()
      table.timestamp('last_ok_at').nullable()
      table.timestamp('failing_since').nullable()
      table.string('last_error', 255).nullable()
      table.timestamp('updated_at').nullable()
    })
  }

  async down() {
    this.schema.dropTable('mail_intake_state')
    this.schema.dropTable('mail_messages')
    this.schema.alterTable('products', (table) => table.dropColumn('retailer'))
    this.schema.alterTable('orders', (table) => table.dropColumn('mail_token'))
  }
}
