import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id').notNullable()
      table.string('uuid', 36).notNullable().unique()
      table.string('email', 254).notNullable().unique()
      table.string('password').notNullable()
      table.string('name', 64).notNullable().defaultTo('')
      table.string('first_name', 15).nullable()
      table.string('last_name', 20).nullable()
      table.string('phone', 15).nullable()
      table.string('role', 16).notNullable().defaultTo('customer')
      table.text('billing_address').nullable()
      table.string('ad_token', 64).nullable()
      table.string('gateway_customer_id', 64).nullable()
      table.string('card_payment_method_id', 64).nullable()
      table.string('card_brand', 24).nullable()
      table.string('card_last4', 4).nullable()
      table.integer('card_exp_month').nullable()
      table.integer('card_exp_year').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
