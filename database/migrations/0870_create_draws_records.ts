import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A draw's own record, owned by the draws module instead of catalog's `products` row.
 *
 * `draws`: one row per draw product, written when its entries open (the commitment: the seed's
 * SHA-256, the slots, the entry window, drand quicknet's chain hash, public key and round, and
 * the digest of all of it), frozen when they close (`closed_at`, the entry ids' Merkle root and
 * count), and completed by the draw (`drawn_at`, the beacon's randomness and signature) and its
 * settlement (`settled_at`: every entry's order has its final state). `beacon_error` says why a
 * draw whose round is due still waits (no relay answered), for the console and /health.
 *
 * `draw_entries` gains each entry's result (`winner`, `alternate`, `skipped` when its card check
 * was not placed) and when an alternate was promoted to replace a winner (`promoted_at`,
 * `replaced_at`).
 *
 * Existing draws are carried over: their seed (and its SHA-256, published as the commitment
 * until now) and `drawn_at`. A draw that already ran keeps its result under the rule it ran with
 * (`rule_version` 1: seed only); one not drawn yet is committed to a beacon round when it is next
 * read. Then the products columns go.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('draws', (table) => {
      table.increments('id')
      table.integer('product_id').unsigned().notNullable().unique().references('products.id')
      table.integer('rule_version').unsigned().notNullable().defaultTo(2)
      table.string('seed', 64).notNullable()
      table.string('seed_hash', 64).notNullable()
      table.integer('slots').unsigned().nullable()
      table.timestamp('entry_opens_at').nullable()
      table.timestamp('entry_closes_at').nullable()
      table.string('chain_hash', 64).nullable()
      table.string('public_key', 192).nullable()
      table.integer('beacon_round').unsigned().nullable()
      table.string('commitment', 64).nullable()
      table.timestamp('committed_at').nullable()
      table.timestamp('closed_at').nullable()
      table.string('entries_root', 64).nullable()
      table.integer('entry_count').unsigned().nullable()
      table.string('beacon_randomness', 64).nullable()
      table.string('beacon_signature', 96).nullable()
      table.timestamp('drawn_at').nullable()
      table.timestamp('settled_at').nullable()
      table.string('beacon_error', 255).nullable()
      table.timestamp('beacon_checked_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
    })
    this.schema.alterTable('draw_entries', (table) => {
      table.string('result', 16).nullable()
      table.timestamp('promoted_at').nullable()
      table.timestamp('replaced_at').nullable()
    })

    this.defer(async (db) => {
      const products = await db
        .from('products')
        .whereNotNull('draw_seed')
        .select('id', 'draw_seed', 'draw_commitment', 'drawn_at', 'created_at')
      for (const product of products) {
        await db.table('draws').insert({
          product_id: product.id,
          rule_version: product.drawn_at ? 1 : 2,
          seed: product.draw_seed,
          seed_hash: product.draw_commitment,
          drawn_at: product.drawn_at,
          created_at: product.created_at ?? new Date(),
        })
      }
      await db
        .from('draw_entries')
        .whereNotNull('rank')
        .where('won', true)
        .update({ result: 'winner' })
      await db
        .from('draw_entries')
        .whereNotNull('rank')
        .whereNull('result')
        .update({ result: 'alternate' })
      for (const column of ['draw_seed', 'draw_commitment', 'drawn_at']) {
        await db.rawQuery(`ALTER TABLE products DROP COLUMN ${column}`)
      }
    })
  }

  async down() {
    this.schema.alterTable('products', (table) => {
      table.string('draw_seed', 64).nullable()
      table.string('draw_commitment', 64).nullable()
      table.timestamp('drawn_at').nullable()
    })
    this.defer(async (db) => {
      const draws = await db.from('draws').select('product_id', 'seed', 'seed_hash', 'drawn_at')
      for (const draw of draws) {
        await db.from('products').where('id', draw.product_id).update({
          draw_seed: draw.seed,
          draw_commitment: draw.seed_hash,
          drawn_at: draw.drawn_at,
        })
      }
    })
    this.schema.alterTable('draw_entries', (table) => {
      table.dropColumn('result')
      table.dropColumn('promoted_at')
      table.dropColumn('replaced_at')
    })
    this.schema.dropTable('draws')
  }
}
