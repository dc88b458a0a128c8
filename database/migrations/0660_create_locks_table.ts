import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Locks move to `@adonisjs/lock`: its database store's table (key, owner, expiration in epoch
 * ms) replaces `release_locks`. A lock held while this runs is carried over.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('locks', (table) => {
      table.string('key', 255).notNullable().primary()
      table.string('owner', 255).notNullable()
      table.bigInteger('expiration').unsigned().nullable()
    })
    this.defer(async (db) => {
      const held = await db.from('release_locks').select('name', 'owner', 'expires_at_ms')
      for (const row of held) {
        await db
          .table('locks')
          .insert({ key: row.name, owner: row.owner, expiration: row.expires_at_ms })
      }
    })
    this.schema.dropTable('release_locks')
  }

  async down() {
    this.schema.createTable('release_locks', (table) => {
      table.string('name', 64).primary()
      table.string('owner', 80).notNullable()
      table.bigInteger('expires_at_ms').notNullable()
    })
    this.schema.dropTable('locks')
  }
}
