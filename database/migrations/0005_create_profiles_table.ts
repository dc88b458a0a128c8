import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'profiles'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('public_id', 36).notNullable().unique()
      table
        .integer('user_id')
        .notNullable()
        .unsigned()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('profile_name', 64).notNullable()
      table.string('email', 254).notNullable()
      table.string('phone', 15).notNullable()
      table.text('shipping').notNullable()
      table.text('billing').notNullable()
      table.text('card_vault').notNullable()
      table.string('card_name', 64).nullable()
      table.string('card_brand', 24).notNullable()
      table.string('card_last4', 4).notNullable()
      table.integer('card_exp_month').notNullable()
      table.integer('card_exp_year').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
