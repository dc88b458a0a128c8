import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { clock } from '#core/services/clock'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'

/**
 * What the alert rules count across processes, per minute: HTTP answers and the 5xx among them,
 * the payment gateway's 429s, webhook deliveries with a bad signature. Each process adds to
 * plain numbers in memory (an answer is two integer additions, nothing else on the request
 * path) and writes them to `alert_counters` every few seconds, so every web process, worker and
 * CLI counts into the same minute. The one alert check reads the sums.
 */
export type SignalName = 'http_answers' | 'http_5xx' | 'gateway_429' | 'bad_signature'

const FLUSH_EVERY_MS = 5000

export class Signals {
  /** Kept as fields, not a map: the request path adds to them on every answer. */
  private answers = 0
  private errors = 0
  private others = new Map<SignalName, number>()
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null

  /** Every HTTP answer (the request metrics middleware). */
  answer(status: number) {
    this.answers++
    if (status >= 500) this.errors++
  }

  /** A rare event (a 429 from the gateway, a bad signature). */
  count(name: SignalName, by = 1) {
    this.others.set(name, (this.others.get(name) ?? 0) + by)
  }

  /** Writes what this process counted into the current minute, shared by every process. */
  flush(): Promise<void> {
    // One flush at a time: a timer tick and a check in the same process never add twice.
    this.flushing ??= this.write().finally(() => {
      this.flushing = null
    })
    return this.flushing
  }

  private async write() {
    const counts = new Map(this.others)
    if (this.answers) counts.set('http_answers', this.answers)
    if (this.errors) counts.set('http_5xx', this.errors)
    this.answers = 0
    this.errors = 0
    this.others.clear()
    const minute = Math.floor(clock.nowMs() / 60_000)
    for (const [signal, count] of counts) {
      try {
        await this.add(signal, minute, count)
      } catch (error) {
        // Not lost for good: counted again into the next flush.
        this.others.set(signal, (this.others.get(signal) ?? 0) + count)
        logger.warn(
          { err: error, signal },
          'alert counters not written; retrying with the next flush'
        )
      }
    }
  }

  private async add(signal: SignalName, minute: number, count: number) {
    const bump = () =>
      db
        .from('alert_counters')
        .where({ signal_name: signal, minute })
        .update({ total: db.knexRawQuery('total + ?', [count]) })
    if (affectedRows(await bump()) > 0) return
    try {
      await db.table('alert_counters').insert({ signal_name: signal, minute, total: count })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      await bump()
    }
  }

  /**
   * The sum of a signal, all processes together, over the minutes that overlap the last
   * `windowMs` (so a one-minute window reads the minute before this one and this one), and the
   * start of the first minute read.
   */
  async sum(signal: SignalName, windowMs: number): Promise<{ total: number; since: Date }> {
    const from = Math.floor((clock.nowMs() - windowMs) / 60_000)
    const row = await db
      .from('alert_counters')
      .where('signal_name', signal)
      .where('minute', '>=', from)
      .sum('total as total')
      .first()
    return { total: Number(row?.total ?? 0), since: new Date(from * 60_000) }
  }

  /** Forgets minutes older than a day (the alert check calls it). */
  async prune() {
    const before = Math.floor(clock.nowMs() / 60_000) - 24 * 60
    await db.from('alert_counters').where('minute', '<', before).delete()
  }

  /** Flushes every few seconds until `stop()` (web processes and workers). */
  start() {
    if (this.timer) return
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS)
    this.timer.unref()
  }

  async stop() {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.flush()
  }

  /** Forgets what was counted and not written (tests). */
  discard() {
    this.answers = 0
    this.errors = 0
    this.others.clear()
  }
}

export const signals = new Signals()
