import { Settings } from 'luxon'

/**
 * The time the product acts on. Everything that expires (card authorizations, passes, tokens,
 * deadlines, alert windows) reads it, so a test can move time forward instead of sleeping.
 * Luxon's `DateTime.now()` (and so Lucid's timestamps) and `sqlTime()` follow it; `Date.now()`
 * does not, so code that decides an expiry asks the clock.
 *
 * In production the clock is the system clock: the offset is only ever set by tests.
 */
class Clock {
  private offsetMs = 0
  private frozenAtMs: number | null = null

  /** Milliseconds since the epoch, as the product sees them. */
  nowMs(): number {
    return this.frozenAtMs ?? Date.now() + this.offsetMs
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** Moves time forward (tests). Frozen time moves with it. */
  travel(ms: number) {
    if (this.frozenAtMs !== null) this.frozenAtMs += ms
    else this.offsetMs += ms
  }

  /** Stops time at an instant (now by default) until `travel` or `reset` (tests). */
  freeze(at: Date | number = this.nowMs()) {
    this.frozenAtMs = typeof at === 'number' ? at : at.getTime()
  }

  /** Back to the system clock. */
  reset() {
    this.offsetMs = 0
    this.frozenAtMs = null
  }

  /** Whether a test has moved or frozen time. */
  get isMoved() {
    return this.offsetMs !== 0 || this.frozenAtMs !== null
  }
}

export const clock = new Clock()

Settings.now = () => clock.nowMs()
