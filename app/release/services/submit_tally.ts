import { EngineError } from '#release/services/checkout_engines'

/**
 * What a release run's checkout engine did with the orders that were due: a circuit breaker for
 * an engine that cannot be reached, and the run's verdict once every due order was tried. A run
 * that leaves any due order unsubmitted fails, with the reason, however few orders were due (the
 * orders stay as they were, for the next run).
 */
export class SubmitTally {
  private failuresInARow = 0
  private readonly limit: number
  private accepted = 0
  private refused = 0
  private lastError: string | null = null

  constructor(breakerFailures: number) {
    this.limit = Math.max(1, breakerFailures)
  }

  /** The engine took the order. */
  accept() {
    this.failuresInARow = 0
    this.accepted++
  }

  /**
   * The engine refused the order or could not be reached. After `limit` unreachable orders in a
   * row the run stops: it throws, and the orders not tried yet stay pending.
   */
  refuse(error: EngineError) {
    this.refused++
    this.lastError = error.message
    if (!error.unreachable) return
    this.failuresInARow++
    if (this.failuresInARow >= this.limit) {
      throw new EngineError(
        `${error.message}; stopped after ${this.limit} orders in a row, all left pending`,
        true
      )
    }
  }

  /** Once every due order was tried: throws the run's failure if any was not accepted. */
  settle() {
    if (this.refused === 0) return
    const due = this.accepted + this.refused
    throw new EngineError(
      `${this.refused} of ${due} due order${due === 1 ? ' was' : 's were'} not accepted by the ` +
        `engine: ${this.lastError}`,
      true
    )
  }
}
