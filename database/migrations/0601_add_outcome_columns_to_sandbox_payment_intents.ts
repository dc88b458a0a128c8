import { BaseSchema } from '@adonisjs/lucid/schema'

/*
| The sandbox gateway keeps declined payment intents too (status requires_payment_method with
| their last error) and why an intent was cancelled, as the provider does: webhooks are checked
| against what the gateway reports, so it must be able to report these.
*/
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.string('cancellation_reason', 32).nullable()
      table.string('last_error_code', 64).nullable()
      table.string('last_decline_code', 64).nullable()
      table.string('last_error_message', 255).nullable()
    })
  }

  async down() {
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.dropColumn('cancellation_reason')
      table.dropColumn('last_error_code')
      table.dropColumn('last_decline_code')
      table.dropColumn('last_error_message')
    })
  }
}
