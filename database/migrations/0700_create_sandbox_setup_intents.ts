import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| The sandbox gateway's card setups that wait for the customer's 3-D Secure authentication (the
| sandbox's stand-in for Stripe's SetupIntents). No card number is ever stored.
*/
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('sandbox_setup_intents', (table) => {
      table.string('id', 64).primary()
      table.string('customer_id', 64).notNullable()
      table.string('brand', 24).notNullable()
      table.string('last4', 4).notNullable()
      table.integer('exp_month').notNullable()
      table.integer('exp_year').notNullable()
      // what the card does once saved (the payment method's behaviour)
      table.string('behaviour', 64).notNullable()
      // requires_action | succeeded | requires_payment_method (authentication failed)
      table.string('status', 32).notNullable()
      table.string('payment_method_id', 64).nullable()
      table.string('last_error_code', 64).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['customer_id'])
    })
  }

  async down() {
    this.schema.dropTable('sandbox_setup_intents')
  }
}
