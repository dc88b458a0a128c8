import { createHash } from 'node:crypto'
import limiter from '@adonisjs/limiter/services/main'

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

/**
 * Counts an attempt against every key (per IP and per e-mail); the first exhausted key throws
 * E_TOO_MANY_REQUESTS, which the error handler turns into the 429 envelope.
 */
export async function consumeAttempt(
  action: string,
  keys: { ip: string; email?: unknown },
  limit: Limit
) {
  const attempts = limiterFor(limit)
  await attempts.consume(`${action}:ip:${keys.ip}`)
  if (typeof keys.email === 'string' && keys.email.trim()) {
    const emailKey = createHash('sha256').update(keys.email.trim().toLowerCase()).digest('hex')
    await attempts.consume(`${action}:email:${emailKey}`)
  }
}
