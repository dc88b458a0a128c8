import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Waiting rooms for first-come drops (optional per product). Slots go on sale at
 * `queue_opens_at`; customers who arrive in the `queue_minutes` before it wait, and at that
 * moment they get a random place in line (arriving earlier within the window gives no
 * advantage; `queue_ordered_at` records that the places were given, once). Later arrivals join
 * the end. The line moves at `queue_rate_per_minute`; a customer let through gets a signed,
 * short-lived pass that the checkout requires.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('products', (table) => {
      table.timestamp('queue_opens_at').nullable()
      table.integer('queue_minutes').unsigned().nullable()
      table.integer('queue_rate_per_minute').unsigned().nullable()
      table.timestamp('queue_ordered_at').nullable()
    })
    this.schema.createTable('queue_places', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().notNullable().references('products.id')
      table.integer('user_id').unsigned().notNullable()
      table.timestamp('joined_at').notNullable()
      table.integer('place').unsigned().nullable()
      table.unique(['product_id', 'user_id'], { indexName: 'queue_places_one_per_account' })
      table.unique(['product_id', 'place'], { indexName: 'queue_places_one_per_place' })
    })
  }

  async down() {
    this.schema.dropTable('queue_places')
    this.schema.alterTable('products', (table) => {
      table.dropColumn('queue_opens_at')
      table.dropColumn('queue_minutes')
      table.dropColumn('queue_rate_per_minute')
      table.dropColumn('queue_ordered_at')
    })
  }
}
