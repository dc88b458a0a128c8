import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Alerts (docs/operations.md):
 * - `alert_counters`: what every process counted per minute (answers, 5xx answers, the gateway's
 *   429s, bad webhook signatures), added up across processes, written in batches, never per
 *   request;
 * - `incidents`: one row per incident of a rule and subject; `open_key` is set while it is open
 *   and NULL once resolved, so a unique index allows one open incident per rule and subject
 *   however many processes check at once;
 * - `incident_notices`: the webhook message of each incident's opening and resolution, sent once
 *   (claimed by a conditional update, retried with back-off). The e-mails go through the outbox.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('alert_counters', (table) => {
      table.string('signal_name', 40).notNullable()
      // Minutes since the epoch.
      table.bigInteger('minute').notNullable()
      table.bigInteger('total').notNullable().defaultTo(0)
      table.primary(['signal_name', 'minute'])
    })

    this.schema.createTable('incidents', (table) => {
      table.increments('id')
      table.string('rule', 48).notNullable()
      table.string('subject', 120).notNullable().defaultTo('')
      table.string('open_key', 180).nullable().unique()
      table.string('status', 16).notNullable()
      table.string('title', 200).notNullable()
      table.string('detail', 1000).nullable()
      table.double('value').nullable()
      table.double('threshold').nullable()
      table.timestamp('opened_at').notNullable()
      table.timestamp('last_seen_at').notNullable()
      table.timestamp('resolved_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['status', 'opened_at'])
      table.index(['rule', 'opened_at'])
    })

    this.schema.createTable('incident_notices', (table) => {
      table.increments('id')
      table.integer('incident_id').unsigned().notNullable()
      // opened | resolved
      table.string('event', 16).notNullable()
      table.string('channel', 16).notNullable()
      // queued -> sending -> sent | failed
      table.string('status', 16).notNullable()
      table.integer('attempts').notNullable().defaultTo(0)
      table.string('last_error', 500).nullable()
      table.timestamp('next_attempt_at').nullable()
      table.timestamp('sent_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['incident_id', 'event', 'channel'])
      table.index(['status', 'next_attempt_at'])
    })
  }

  async down() {
    this.schema.dropTable('incident_notices')
    this.schema.dropTable('incidents')
    this.schema.dropTable('alert_counters')
  }
}
