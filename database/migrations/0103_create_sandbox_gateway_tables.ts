import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| Persistent state of the sandbox payment gateway (the embedded default): it keeps customers,
| saved cards, payment intents and refunds like the real provider does, and replays a request
| made again with the same idempotency key. No full card number is ever stored here.
*/
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('sandbox_tokens', (table) => {
      table.string('id', 64).primary()
      table.string('brand', 24).notNullable()
      table.string('last4', 4).notNullable()
      table.integer('exp_month').notNullable()
      table.integer('exp_year').notNullable()
      table.string('behaviour', 64).notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
    })
    this.schema.createTable('sandbox_customers', (table) => {
      table.string('id', 64).primary()
      table.string('email', 254).notNullable()
      table.string('name', 128).nullable()
      table.string('reference', 64).nullable()
      table.timestamp('created_at').notNullable()
    })
    this.schema.createTable('sandbox_payment_methods', (table) => {
      table.string('id', 64).primary()
      table.string('customer_id', 64).notNullable()
      table.string('brand', 24).notNullable()
      table.string('last4', 4).notNullable()
      table.integer('exp_month').notNullable()
      table.integer('exp_year').notNullable()
      table.string('behaviour', 64).notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['customer_id'])
    })
    this.schema.createTable('sandbox_payment_intents', (table) => {
      table.string('id', 64).primary()
      table.string('customer_id', 64).notNullable()
      table.string('payment_method_id', 64).notNullable()
      table.integer('amount').notNullable()
      table.string('currency', 3).notNullable()
      table.string('capture_method', 16).notNullable()
      // requires_capture | succeeded | canceled
      table.string('status', 24).notNullable()
      table.integer('amount_refunded').notNullable().defaultTo(0)
      table.text('metadata').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
    this.schema.createTable('sandbox_refunds', (table) => {
      table.string('id', 64).primary()
      table.string('payment_intent_id', 64).notNullable()
      table.integer('amount').notNullable()
      table.string('status', 16).notNullable()
      table.timestamp('created_at').notNullable()
    })
    this.schema.createTable('sandbox_requests', (table) => {
      table.increments('id')
      table.string('idempotency_key', 160).notNullable().unique()
      table.string('operation', 32).notNullable()
      // pending until the operation finished; then the response or the error it gave
      table.string('state', 16).notNullable()
      table.text('response').nullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    for (const name of [
      'sandbox_requests',
      'sandbox_refunds',
      'sandbox_payment_intents',
      'sandbox_payment_methods',
      'sandbox_customers',
      'sandbox_tokens',
    ]) {
      this.schema.dropTable(name)
    }
  }
}
