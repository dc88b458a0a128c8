import db from '@adonisjs/lucid/services/db'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'

/** The one lock every release run takes. */
export const RELEASE_LOCK = 'release:run'

/**
 * A named lock shared by every process on the same database (SQLite or MariaDB): one row per
 * name, claimed by an INSERT or by a conditional UPDATE of an expired row. The holder renews it
 * (heartbeat); a holder killed with SIGKILL stops renewing, so its lock lapses after `ttlMs` and
 * the next run takes over.
 */
export class ReleaseLock {
  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now()
    try {
      await db.table('release_locks').insert({ name, owner, expires_at_ms: now + ttlMs })
      return true
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    const result = await db
      .from('release_locks')
      .where('name', name)
      .where((query) => query.where('expires_at_ms', '<', now).orWhere('owner', owner))
      .update({ owner, expires_at_ms: now + ttlMs })
    return affectedRows(result) === 1
  }

  /** Extends the lock; false if it was lost (expired and taken by another run). */
  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await db
      .from('release_locks')
      .where({ name, owner })
      .update({ expires_at_ms: Date.now() + ttlMs })
    return affectedRows(result) === 1
  }

  async release(name: string, owner: string) {
    await db.from('release_locks').where({ name, owner }).delete()
  }

  async holder(name: string): Promise<{ owner: string; expiresAt: Date } | null> {
    const row = await db.from('release_locks').where('name', name).first()
    if (!row || Number(row.expires_at_ms) < Date.now()) return null
    return { owner: row.owner, expiresAt: new Date(Number(row.expires_at_ms)) }
  }
}

export const releaseLock = new ReleaseLock()
