import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Draw releases. A product is `first-come` (the rush) or `draw`: entries are taken between
 * `entry_opens_at` and `entry_closes_at`, then the slots go to the entries with the lowest
 * HMAC-SHA256(seed, entry id). `draw_commitment` (SHA-256 of the seed) is public from the start,
 * the seed once the draw has run (`drawn_at`).
 *
 * One entry per person: the unique indexes on (product, account), (product, card fingerprint:
 * a keyed hash of the card number, never the number) and (product, normalized shipping address)
 * decide, not a read before the write. Each refused second entry is counted in `draw_blocks` by
 * the rule that refused it, for the console.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('products', (table) => {
      table.string('release_mode', 16).notNullable().defaultTo('first-come')
      table.timestamp('entry_opens_at').nullable()
      table.timestamp('entry_closes_at').nullable()
      table.string('draw_seed', 64).nullable()
      table.string('draw_commitment', 64).nullable()
      table.timestamp('drawn_at').nullable()
    })
    this.schema.createTable('draw_entries', (table) => {
      table.increments('id')
      table.string('public_id', 36).notNullable().unique()
      table.integer('product_id').unsigned().notNullable().references('products.id')
      table.integer('order_id').unsigned().notNullable().unique().references('orders.id')
      table.integer('user_id').unsigned().notNullable()
      table.string('card_fingerprint', 64).notNullable()
      table.string('address_key', 191).notNullable()
      table.integer('rank').unsigned().nullable()
      table.boolean('won').nullable()
      table.timestamp('created_at').notNullable()
      table.unique(['product_id', 'user_id'], { indexName: 'draw_entries_one_per_account' })
      table.unique(['product_id', 'card_fingerprint'], { indexName: 'draw_entries_one_per_card' })
      table.unique(['product_id', 'address_key'], { indexName: 'draw_entries_one_per_address' })
    })
    this.schema.createTable('draw_blocks', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().notNullable().references('products.id')
      table.string('rule', 16).notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['product_id', 'rule'])
    })
  }

  async down() {
    this.schema.dropTable('draw_blocks')
    this.schema.dropTable('draw_entries')
    this.schema.alterTable('products', (table) => {
      table.dropColumn('release_mode')
      table.dropColumn('entry_opens_at')
      table.dropColumn('entry_closes_at')
      table.dropColumn('draw_seed')
      table.dropColumn('draw_commitment')
      table.dropColumn('drawn_at')
    })
  }
}
