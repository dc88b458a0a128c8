import lock from '@adonisjs/lock/services/main'
import redis from '@adonisjs/redis/services/main'
import db from '@adonisjs/lucid/services/db'
import lockConfig from '#config/lock'
import { LOCK_TABLE } from '#core/services/lucid_lock_store'

/** The one lock every release run takes. */
export const RELEASE_LOCK = 'release:run'

export type LockHolder = { owner: string; expiresAt: Date }

/**
 * A named lock shared by every process, through `@adonisjs/lock` (Redis when REDIS_URL is set,
 * the database otherwise). The holder renews it (heartbeat); a holder killed with SIGKILL stops
 * renewing, so its lock lapses after `ttlMs` and the next run takes over. Owners are readable
 * ("cli:ops@host:pid:..."), so the console and the CLI can say who holds it.
 */
export class ReleaseLock {
  constructor(private store: 'redis' | 'database' = lockConfig.default) {}

  private handle(name: string, owner: string, ttlMs: number | null) {
    return lock.use(this.store).restoreLock({ key: name, owner, ttl: ttlMs, expirationTime: null })
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.handle(name, owner, ttlMs).acquireImmediately()
  }

  /** Extends the lock; false if it was lost (expired and taken by another run). */
  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    try {
      await this.handle(name, owner, ttlMs).extend(ttlMs)
      return true
    } catch (error) {
      if ((error as { code?: string }).code === 'E_LOCK_NOT_OWNED') return false
      throw error
    }
  }

  async release(name: string, owner: string) {
    try {
      await this.handle(name, owner, null).release()
    } catch (error) {
      // Lapsed and taken by another run: theirs now.
      if ((error as { code?: string }).code !== 'E_LOCK_NOT_OWNED') throw error
    }
  }

  /** Frees the lock whoever holds it (`release:unlock --force`, after the checks). */
  async forceRelease(name: string) {
    await this.handle(name, 'unlock', null).forceRelease()
  }

  /** Who holds the lock now (null when free or lapsed). */
  async holder(name: string): Promise<LockHolder | null> {
    const held = await this.inspect(name)
    return held && held.expiresAt.getTime() >= Date.now() ? held : null
  }

  /** The lock's record, lapsed or not (a lapsed Redis lock is gone, a database row stays). */
  async inspect(name: string): Promise<LockHolder | null> {
    if (this.store === 'redis') {
      const connection = redis.connection('main')
      const [owner, ttl] = await Promise.all([connection.get(name), connection.pttl(name)])
      if (!owner) return null
      return { owner, expiresAt: new Date(Date.now() + Math.max(0, ttl)) }
    }
    const row = await db.from(LOCK_TABLE).where('key', name).first()
    if (!row) return null
    return { owner: String(row.owner), expiresAt: new Date(Number(row.expiration)) }
  }
}

export const releaseLock = new ReleaseLock()
