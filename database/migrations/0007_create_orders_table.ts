import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'orders'

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
      table.integer('product_id').notNullable().unsigned().references('id').inTable('products')
      // The profile's public id, not a foreign key: an order outlives a deleted profile
      // ("gone" on screen) and keeps its own sealed copy of what the bot needs.
      table.string('profile_id', 36).notNullable()
      table.string('product_title', 160).notNullable()
      table.integer('base_price_cents').notNullable()
      table.integer('price_cents').notNullable()
      table.string('promo_code', 40).nullable()
      table.integer('promo_percent').nullable()
      table.string('style', 64).notNullable()
      table.string('size', 16).notNullable()
      table.string('email', 254).notNullable()
      table.string('name', 64).notNullable()
      table.string('status', 16).notNullable().defaultTo('pending')
      // 1 while the order is active (pending/processing/success), NULL otherwise: the unique
      // index below then allows one active order per product and profile, enforced by the
      // database itself (NULLs never collide in a unique index on SQLite or MariaDB).
      table.tinyint('active_slot').nullable().defaultTo(1)
      table.text('aco_vault').nullable()
      table.string('confirmation_number', 120).nullable()
      table.string('fail_reason', 255).nullable()
      table.timestamp('processing_at').nullable()
      table.timestamp('succeeded_at').nullable()
      table.timestamp('failed_at').nullable()
      table.timestamp('cancelled_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['product_id', 'profile_id', 'active_slot'])
      table.index(['user_id', 'created_at'])
      table.index(['product_id', 'status'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
