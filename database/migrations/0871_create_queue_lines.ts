import { randomBytes, randomUUID, createHash } from 'node:crypto'
import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A waiting room's line, owned by the draws module instead of catalog's `products` row.
 *
 * `queue_lines`: written when the line forms (the commitment: the seed's SHA-256, when the line
 * closes (a minute before the sale opens), drand quicknet's round at least 60 s after that, and
 * the digest), frozen when it closes (`closed_at`, the members' Merkle root and count), and
 * ordered from the beacon (`ordered_at`, randomness and signature). `beacon_error` says why a
 * line whose round is due still waits.
 *
 * `queue_places` gains a public id (what the published list shows, never the account), the
 * keyed hashes of the card and the billing address it joined with (one place per card and per
 * address, by unique indexes), and `late` for those who joined after the line closed (they are
 * placed after it, in the order they came). `queue_passes`: one pass per customer and drop,
 * spent by the checkout it is used for.
 *
 * Lines already shuffled keep their places (`rule_version` 1); `products.queue_ordered_at` goes.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('queue_lines', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().notNullable().unique().references('products.id')
      table.integer('rule_version').unsigned().notNullable().defaultTo(2)
      table.string('seed', 64).notNullable()
      table.string('seed_hash', 64).notNullable()
      table.timestamp('closes_at').nullable()
      table.string('chain_hash', 64).nullable()
      table.string('public_key', 192).nullable()
      table.integer('beacon_round').unsigned().nullable()
      table.string('commitment', 64).nullable()
      table.timestamp('committed_at').nullable()
      table.timestamp('closed_at').nullable()
      table.string('members_root', 64).nullable()
      table.integer('member_count').unsigned().nullable()
      table.string('beacon_randomness', 64).nullable()
      table.string('beacon_signature', 96).nullable()
      table.timestamp('ordered_at').nullable()
      table.string('beacon_error', 255).nullable()
      table.timestamp('beacon_checked_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
    this.schema.alterTable('queue_places', (table) => {
      table.string('public_id', 36).nullable().unique()
      table.string('card_key', 64).nullable()
      table.string('address_key', 191).nullable()
      table.boolean('late').notNullable().defaultTo(false)
      table.unique(['product_id', 'card_key'], { indexName: 'queue_places_one_per_card' })
      table.unique(['product_id', 'address_key'], { indexName: 'queue_places_one_per_address' })
    })
    this.schema.createTable('queue_passes', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().notNullable().references('products.id')
      table.integer('user_id').unsigned().notNullable()
      table.integer('place').unsigned().notNullable()
      table.string('token_hash', 64).notNullable().unique()
      table.timestamp('issued_at').notNullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('spent_at').nullable()
      table.integer('order_id').unsigned().nullable()
      table.unique(['product_id', 'user_id'], { indexName: 'queue_passes_one_per_customer' })
    })

    this.defer(async (db) => {
      const places = await db.from('queue_places').whereNull('public_id').select('id')
      for (const place of places) {
        await db.from('queue_places').where('id', place.id).update({ public_id: randomUUID() })
      }
      const products = await db
        .from('products')
        .whereNotNull('queue_ordered_at')
        .select('id', 'queue_ordered_at')
      for (const product of products) {
        const seed = randomBytes(32).toString('hex')
        await db.table('queue_lines').insert({
          product_id: product.id,
          rule_version: 1,
          seed,
          seed_hash: createHash('sha256').update(seed).digest('hex'),
          ordered_at: product.queue_ordered_at,
          created_at: product.queue_ordered_at,
        })
      }
      await db.rawQuery('ALTER TABLE products DROP COLUMN queue_ordered_at')
    })
  }

  async down() {
    this.schema.alterTable('products', (table) => {
      table.timestamp('queue_ordered_at').nullable()
    })
    this.defer(async (db) => {
      const lines = await db.from('queue_lines').whereNotNull('ordered_at')
      for (const line of lines) {
        await db
          .from('products')
          .where('id', line.product_id)
          .update({ queue_ordered_at: line.ordered_at })
      }
    })
    this.schema.dropTable('queue_passes')
    this.schema.alterTable('queue_places', (table) => {
      table.dropUnique(['product_id', 'card_key'], 'queue_places_one_per_card')
      table.dropUnique(['product_id', 'address_key'], 'queue_places_one_per_address')
      table.dropColumn('public_id')
      table.dropColumn('card_key')
      table.dropColumn('address_key')
      table.dropColumn('late')
    })
    this.schema.dropTable('queue_lines')
  }
}
