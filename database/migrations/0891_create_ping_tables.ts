import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Customer pings besides the e-mail (docs/operations.md):
 * - `push_subscriptions`: a browser's web push subscription (its endpoint, unique by hash, and
 *   the keys its messages are encrypted with), removed when the push service says it is gone;
 * - `ping_settings`: a customer's own Discord webhook, sealed by the vault (its URL is a secret);
 * - `email_messages.ping_status` / `ping_payload` / `ping_due_at`: an outcome e-mail that is also
 *   pinged: `due` until every channel got it, so the ping rides the e-mail's own dedupe key (one
 *   outbox row per order and kind, one ping);
 * - `ping_deliveries`: one row per message and channel (a subscription, Discord), claimed before
 *   it is sent, so a message reaches each channel once.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('push_subscriptions', (table) => {
      table.increments('id')
      table
        .integer('user_id')
        .notNullable()
        .unsigned()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.text('endpoint').notNullable()
      table.string('endpoint_hash', 64).notNullable().unique()
      table.string('p256dh', 120).notNullable()
      table.string('auth', 40).notNullable()
      table.timestamp('last_sent_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['user_id'])
    })

    this.schema.createTable('ping_settings', (table) => {
      table
        .integer('user_id')
        .notNullable()
        .unsigned()
        .primary()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.text('discord_webhook_vault').nullable()
      table.string('discord_hint', 60).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })

    this.schema.alterTable('email_messages', (table) => {
      table.string('ping_status', 8).nullable()
      table.text('ping_payload').nullable()
      table.timestamp('ping_due_at').nullable()
      table.index(['ping_status', 'ping_due_at'])
    })

    this.schema.createTable('ping_deliveries', (table) => {
      table.increments('id')
      table.integer('email_message_id').unsigned().notNullable()
      // push:<subscription id> | discord
      table.string('target', 40).notNullable()
      // sending -> sent | gone | retry | failed
      table.string('status', 16).notNullable()
      table.integer('attempts').notNullable().defaultTo(0)
      table.string('last_error', 255).nullable()
      table.timestamp('next_attempt_at').nullable()
      table.timestamp('sent_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['email_message_id', 'target'])
    })
  }

  async down() {
    this.schema.dropTable('ping_deliveries')
    this.schema.alterTable('email_messages', (table) => {
      table.dropIndex(['ping_status', 'ping_due_at'])
      table.dropColumn('ping_status')
      table.dropColumn('ping_payload')
      table.dropColumn('ping_due_at')
    })
    this.schema.dropTable('ping_settings')
    this.schema.dropTable('push_subscriptions')
  }
}
