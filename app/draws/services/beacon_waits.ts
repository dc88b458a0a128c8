import db from '@adonisjs/lucid/services/db'
import { clock } from '#core/services/clock'
import { timeOf } from '#draws/services/draw_records'
import { beaconDelayNotice, beaconRule } from '#shared/beacon_rule'
import { roundTime } from '#shared/draw'

/**
 * A draw, or a waiting room's line, frozen and due: its committed round is out, and the last
 * time it was asked for, no relay gave it. It waits for that same round (shared/beacon_rule.ts).
 */
export type BeaconWait = {
  kind: 'draw' | 'line'
  productId: number
  round: number
  /** When drand published the round: the draw has been late since then. */
  dueAt: Date
  /** Why the last fetch failed, and when it was tried. */
  lastError: string
  lastTriedAt: Date | null
}

/** What a customer sees while the promised randomness is late (public, nothing technical). */
export type BeaconDelay = { reason: 'randomness_late'; dueAt: string; message: string }

const utcMinute = (at: Date) => `${at.toISOString().slice(11, 16)} UTC`

function waitOf(kind: BeaconWait['kind'], row: Record<string, any>): BeaconWait {
  const round = Number(row.beacon_round)
  return {
    kind,
    productId: Number(row.product_id),
    round,
    dueAt: new Date(roundTime(round) * 1000),
    lastError: String(row.beacon_error),
    lastTriedAt: timeOf(row.beacon_checked_at),
  }
}

/** Frozen, not decided, the round noted as unavailable (the runner and the room note it). */
const waiting = (table: 'draws' | 'queue_lines', decided: 'drawn_at' | 'ordered_at') =>
  db
    .from(table)
    .whereNotNull('closed_at')
    .whereNull(decided)
    .whereNotNull('beacon_round')
    .whereNotNull('beacon_error')
    .select('product_id', 'beacon_round', 'beacon_error', 'beacon_checked_at')

/**
 * Draws and lines that wait for their committed beacon round: for the `beacon_unavailable`
 * alert, the console, and the customers' "the draw is delayed" notice.
 */
class BeaconWaits {
  async all(): Promise<BeaconWait[]> {
    const draws = await waiting('draws', 'drawn_at')
    const lines = await waiting('queue_lines', 'ordered_at')
    return [
      ...draws.map((row) => waitOf('draw', row)),
      ...lines.map((row) => waitOf('line', row)),
    ].filter((wait) => wait.dueAt.getTime() <= clock.nowMs())
  }

  async of(kind: BeaconWait['kind'], productId: number): Promise<BeaconWait | null> {
    const row =
      kind === 'draw'
        ? await waiting('draws', 'drawn_at').where('product_id', productId).first()
        : await waiting('queue_lines', 'ordered_at').where('product_id', productId).first()
    const wait = row ? waitOf(kind, row) : null
    return wait && wait.dueAt.getTime() <= clock.nowMs() ? wait : null
  }

  /** The console's view of a wait: the round, since when it is late, the last error. */
  async console(kind: BeaconWait['kind'], productId: number) {
    const wait = await this.of(kind, productId)
    if (!wait) return { beaconWait: null }
    return {
      beaconWait: {
        round: wait.round,
        dueAt: wait.dueAt.toISOString(),
        lateMinutes: Math.max(0, Math.floor((clock.nowMs() - wait.dueAt.getTime()) / 60_000)),
        lastError: wait.lastError,
        lastTriedAt: wait.lastTriedAt?.toISOString() ?? null,
      },
    }
  }

  /** What a proof adds for anyone: the rule of its round, and whether that round is late. */
  async public(kind: BeaconWait['kind'], productId: number, round: number | null) {
    const wait = await this.of(kind, productId)
    const delay: BeaconDelay | null = wait
      ? {
          reason: 'randomness_late',
          dueAt: wait.dueAt.toISOString(),
          message: beaconDelayNotice(kind, utcMinute(wait.dueAt)),
        }
      : null
    return { beaconRule: beaconRule(round), delay }
  }
}

export const beaconWaits = new BeaconWaits()
