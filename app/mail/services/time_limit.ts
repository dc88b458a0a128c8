/** The intake took longer than its MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS over one message. */
export class TimeLimitExceeded extends Error {
  constructor(public readonly ms: number) {
    super(`The intake took more than ${Math.round(ms / 1000)} s over one message.`)
    this.name = 'TimeLimitExceeded'
  }
}

/**
 * `work`, or TimeLimitExceeded once `ms` have passed without an answer. The work itself cannot be
 * stopped from here and may still finish later: what it does then is idempotent (the intake's
 * dedupe), the caller has only stopped waiting for it.
 */
export function withTimeLimit<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded(ms)), ms)
    timer.unref()
  })
  // A late failure of abandoned work must not surface as an unhandled rejection.
  work.catch(() => null)
  return Promise.race([work, expired]).finally(() => clearTimeout(timer))
}
