import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The gateway's fingerprint of a card (Stripe's `card.fingerprint`: one per card number,
 * whatever name or expiry is typed), which the one-entry-per-card rule of a draw and of a
 * waiting room goes by: kept on the customer with the card on file (`users.card_fingerprint`)
 * and on the order whose $1.00 check it paid (`orders.hold_card_fingerprint`, the card actually
 * checked). The sandbox gateway gives one per card number to its tokens, setups, payment methods
 * and payment intents, as Stripe does.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.string('card_fingerprint', 64).nullable()
    })
    this.schema.alterTable('orders', (table) => {
      table.string('hold_card_fingerprint', 64).nullable()
    })
    for (const name of ['sandbox_tokens', 'sandbox_setup_intents', 'sandbox_payment_methods']) {
      this.schema.alterTable(name, (table) => {
        table.string('fingerprint', 32).nullable()
      })
    }
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.string('card_fingerprint', 32).nullable()
    })
  }

  async down() {
    this.schema.alterTable('sandbox_payment_intents', (table) => {
      table.dropColumn('card_fingerprint')
    })
    for (const name of ['sandbox_tokens', 'sandbox_setup_intents', 'sandbox_payment_methods']) {
      this.schema.alterTable(name, (table) => {
        table.dropColumn('fingerprint')
      })
    }
    this.schema.alterTable('orders', (table) => {
      table.dropColumn('hold_card_fingerprint')
    })
    this.schema.alterTable('users', (table) => {
      table.dropColumn('card_fingerprint')
    })
  }
}
