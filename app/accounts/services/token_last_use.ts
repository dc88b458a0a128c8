import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { tokenLastUseFlushMs } from '#config/tokens'

/** `last_used_at` says when a token was last used, to the minute. */
export const LAST_USED_PRECISION_MS = 60_000
const BATCH = 500

function toTime(value: unknown): number | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'number') return value
  const text = String(value)
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).getTime()
}

/**
 * Records when access tokens are used without a write per request: a use is noted when the
 * stored time is a minute old or more, and the noted uses are written every few seconds
 * (`TOKEN_LAST_USED_FLUSH_MS`, 5 s by default), one UPDATE per batch of tokens. On release day
 * thousands of customers press Confirm in the same second: one statement instead of thousands
 * of UPDATE-and-commit round trips. What is pending is written when the application stops; a
 * crash loses at most the last few seconds of this bookkeeping.
 */
export class TokenLastUse {
  /** table -> token id -> time of use */
  private pending = new Map<string, Map<number | string, Date>>()
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null

  /** Notes a use of a token now; returns the time noted, or null when the stored one is recent. */
  touch(table: string, id: number | string, storedLastUsedAt: unknown): Date | null {
    const now = new Date()
    const stored = toTime(storedLastUsedAt)
    if (stored !== null && now.getTime() - stored < LAST_USED_PRECISION_MS) return null
    let tokens = this.pending.get(table)
    if (!tokens) this.pending.set(table, (tokens = new Map()))
    tokens.set(id, now)
    this.schedule()
    return now
  }

  /** Writes every noted use now (also called when the web process stops). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.flushing
    const batches = this.pending
    this.pending = new Map()
    this.flushing = this.write(batches).finally(() => (this.flushing = null))
    await this.flushing
  }

  private schedule() {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.flush().catch(() => {})
    }, tokenLastUseFlushMs)
    this.timer.unref()
  }

  private async write(batches: Map<string, Map<number | string, Date>>) {
    for (const [table, tokens] of batches) {
      // One time per batch (the latest use in it, to the second): the column is kept to the
      // minute, and a time never moves backwards.
      const entries = [...tokens]
      for (let start = 0; start < entries.length; start += BATCH) {
        const slice = entries.slice(start, start + BATCH)
        const usedAt = new Date(Math.max(...slice.map(([, time]) => time.getTime())))
        usedAt.setMilliseconds(0)
        try {
          await db
            .from(table)
            .whereIn(
              'id',
              slice.map(([id]) => id)
            )
            .where((query) => query.whereNull('last_used_at').orWhere('last_used_at', '<', usedAt))
            .update({ last_used_at: usedAt })
        } catch (error) {
          logger.warn({ err: error, tokens: slice.length }, 'could not record token last use')
        }
      }
    }
  }
}

export const tokenLastUse = new TokenLastUse()
// Whatever is noted is written before the process closes its database connections.
app.terminating(() => tokenLastUse.flush())
