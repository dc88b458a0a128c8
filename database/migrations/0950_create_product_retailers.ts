import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The retailers a product releases at (docs/mail-intake.md, "Retailers"), in order: each with its own
 * release time when it differs from the product's (null: the product's), its retail price in
 * integer cents (shipping included when known; null: not known) and its product page. The first
 * is the product's `retailer`, whose signed mail proves its orders.
 *
 * Each product that names a retailer gets that one as its list. Its price stays null: the
 * product's `price_cents` is Dropslot's service fee, not what the retailer charges.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('product_retailers', (table) => {
      table.increments('id')
      table
        .integer('product_id')
        .unsigned()
        .notNullable()
        .references('products.id')
        .onDelete('CASCADE')
      table.integer('position').unsigned().notNullable()
      table.string('retailer', 32).notNullable()
      table.timestamp('release_at').nullable()
      table.integer('price_cents').nullable()
      table.string('url', 500).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.unique(['product_id', 'retailer'])
    })
    this.defer(async (db) => {
      await db.rawQuery(
        `INSERT INTO product_retailers (product_id, position, retailer, created_at, updated_at)
         SELECT id, 0, retailer, created_at, updated_at FROM products
         WHERE retailer IS NOT NULL AND retailer <> ''`
      )
    })
  }

  async down() {
    this.schema.dropTable('product_retailers')
  }
}
