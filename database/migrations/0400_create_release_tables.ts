import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Release day: runs (one row per `release:run`), the task of each order handed to a checkout
 * engine (so a crashed run's work is found and finished by the next one), named locks with an
 * expiry (so two runs never overlap and a SIGKILLed run's lock lapses), and the checkout-result
 * callbacks already applied (replay protection).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('release_runs', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().nullable()
      table.string('engine', 16).notNullable()
      table.boolean('dry_run').notNullable().defaultTo(false)
      table.string('status', 16).notNullable()
      table.string('trigger', 32).notNullable().defaultTo('cli')
      table.integer('orders_submitted').notNullable().defaultTo(0)
      table.integer('orders_succeeded').notNullable().defaultTo(0)
      table.integer('orders_failed').notNullable().defaultTo(0)
      table.integer('fees_charged').notNullable().defaultTo(0)
      table.integer('fees_due').notNullable().defaultTo(0)
      table.string('lock_owner', 80).nullable()
      table.string('error', 255).nullable()
      table.timestamp('started_at').notNullable()
      table.timestamp('finished_at').nullable()
      table.timestamp('heartbeat_at').nullable()
      table.index(['started_at'])
    })

    this.schema.createTable('release_tasks', (table) => {
      table.increments('id')
      table.integer('order_id').unsigned().notNullable().unique()
      table.integer('product_id').unsigned().notNullable()
      table.integer('run_id').unsigned().nullable()
      table.string('engine', 16).notNullable()
      table.string('status', 16).notNullable()
      table.string('outcome', 16).nullable()
      table.string('confirmation_number', 120).nullable()
      table.string('reason', 255).nullable()
      table.integer('submit_attempts').notNullable().defaultTo(0)
      table.string('last_error', 255).nullable()
      table.timestamp('submitted_at').nullable()
      table.timestamp('result_at').nullable()
      table.timestamp('finished_at').nullable()
      table.index(['status'])
      table.index(['product_id'])
    })

    this.schema.createTable('release_locks', (table) => {
      table.string('name', 64).primary()
      table.string('owner', 80).notNullable()
      table.bigInteger('expires_at_ms').notNullable()
    })

    this.schema.createTable('checkout_result_events', (table) => {
      table.increments('id')
      table.string('event_id', 120).notNullable().unique()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('checkout_result_events')
    this.schema.dropTable('release_locks')
    this.schema.dropTable('release_tasks')
    this.schema.dropTable('release_runs')
  }
}
