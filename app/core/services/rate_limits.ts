import { createHash } from 'node:crypto'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { AppError } from '#core/exceptions/app_error'
import dropslotConfig from '#config/dropslot'

type Limit = { requests: number; duration: string }
type Limiter = ReturnType<typeof limiter.use>
const limiters = new Map<string, Limiter>()

/** One limiter per limit (the limiter service parses the durations on every `use`). */
function limiterFor(limit: Limit): Limiter {
  const key = `${limit.requests}/${limit.duration}`
  let found = limiters.get(key)
  if (!found) {
    found = limiter.use({ ...limit, blockDuration: limit.duration })
    limiters.set(key, found)
  }
  return found
}

/** A limit that was reached, said in plain words; the handler adds Retry-After. */
export class TooManyAttemptsError extends AppError {
  constructor(
    message: string,
    public retryAfterSeconds: number
  ) {
    super(message, { status: 429, code: 'too_many_requests' })
  }
}

function waitText(seconds: number) {
  if (seconds < 90) return `${seconds} seconds`
  const minutes = Math.ceil(seconds / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

export type AttemptKeys = { ip?: string; email?: unknown; userId?: number | null }

/** Card attempts (tokens, saves) per customer and per address: card testing stops here. */
export async function consumeCardAttempt(keys: { ip: string; userId?: number | null }) {
  const blocked = (wait: string) => `Too many card attempts. Please wait ${wait} and try again.`
  const limits = dropslotConfig.rateLimits
  await consumeAttempt(
    'card',
    { ip: keys.ip },
    { requests: limits.cardPerIpPerHour, duration: '1 hour' },
    blocked
  )
  if (keys.userId) {
    await consumeAttempt(
      'card',
      { userId: keys.userId },
      { requests: limits.cardPerHour, duration: '1 hour' },
      blocked
    )
  }
}

/**
 * Counts an attempt against every key given (the client's address, and the e-mail or the
 * customer when known); the first exhausted key refuses with 429. The store is Redis when
 * REDIS_URL is set, so every process counts against the same budget. `blocked` words the refusal
 * for the customer ("Too many card attempts. Please wait 12 minutes and try again.").
 */
export async function consumeAttempt(
  action: string,
  keys: AttemptKeys,
  limit: Limit,
  blocked?: (wait: string) => string
) {
  const attempts = limiterFor(limit)
  const names: string[] = []
  if (keys.ip) names.push(`${action}:ip:${keys.ip}`)
  if (typeof keys.email === 'string' && keys.email.trim()) {
    const emailKey = createHash('sha256').update(keys.email.trim().toLowerCase()).digest('hex')
    names.push(`${action}:email:${emailKey}`)
  }
  if (keys.userId) names.push(`${action}:user:${keys.userId}`)
  try {
    for (const name of names) await attempts.consume(name)
  } catch (error) {
    if (!blocked || !(error instanceof limiterErrors.E_TOO_MANY_REQUESTS)) throw error
    const seconds = Math.max(1, Math.ceil(error.response.availableIn))
    throw new TooManyAttemptsError(blocked(waitText(seconds)), seconds)
  }
}
