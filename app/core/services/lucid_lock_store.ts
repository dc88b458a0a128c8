import { configProvider } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { DatabaseStore } from '@verrou/core/drivers/database'
import type { DatabaseAdapter } from '@verrou/core/types'
import { affectedRows } from '#core/helpers/db_errors'

/**
 * The lock table read and written through Lucid, for `@adonisjs/lock`'s database store. The
 * package's own database store talks to the raw pool and so cannot see a transaction the caller
 * has open (the test suite's global one included); this one goes through `db` like every other
 * query. Same table shape as the package's (key, owner, expiration in epoch ms).
 */
class LucidLockAdapter implements DatabaseAdapter {
  private table = 'locks'

  setTableName(tableName: string) {
    this.table = tableName
  }

  async createTableIfNotExists() {
    // The table is created by a migration.
  }

  async insertLock(lock: { key: string; owner: string; expiration: number | null }) {
    // A taken key fails on the primary key; the store then tries `acquireLock`.
    await db.table(this.table).insert(lock)
  }

  async acquireLock(lock: { key: string; owner: string; expiration: number | null }) {
    const result = await db
      .from(this.table)
      .where('key', lock.key)
      .where((query) => query.where('expiration', '<=', Date.now()).orWhere('owner', lock.owner))
      .update({ owner: lock.owner, expiration: lock.expiration })
    return affectedRows(result)
  }

  async deleteLock(key: string, owner?: string) {
    const query = db.from(this.table).where('key', key)
    if (owner) query.where('owner', owner)
    await query.delete()
  }

  async extendLock(key: string, owner: string, duration: number) {
    const result = await db
      .from(this.table)
      .where({ key, owner })
      .update({ expiration: Date.now() + duration })
    return affectedRows(result)
  }

  async getLock(key: string) {
    const row = await db.from(this.table).where('key', key).first()
    if (!row) return undefined
    return {
      owner: String(row.owner),
      expiration: row.expiration === null ? null : Number(row.expiration),
    }
  }
}

export const LOCK_TABLE = 'locks'

/** `@adonisjs/lock` store on the application's database, through Lucid. */
export function lucidLockStore() {
  return configProvider.create(async () => ({
    driver: {
      factory: () => new DatabaseStore(new LucidLockAdapter(), { tableName: LOCK_TABLE }),
    },
  }))
}
