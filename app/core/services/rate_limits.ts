import { createHash } from 'node:crypto'
import limiter from '@adonisjs/limiter/services/main'

/**
 * Counts an attempt against every key (per IP and per e-mail); the first exhausted key throws
 * E_TOO_MANY_REQUESTS, which the error handler turns into the 429 envelope.
 */
export async function consumeAttempt(
  action: string,
  keys: { ip: string; email?: unknown },
  limit: { requests: number; duration: string }
) {
  const attempts = limiter.use({ ...limit, blockDuration: limit.duration })
  await attempts.consume(`${action}:ip:${keys.ip}`)
  if (typeof keys.email === 'string' && keys.email.trim()) {
    const emailKey = createHash('sha256').update(keys.email.trim().toLowerCase()).digest('hex')
    await attempts.consume(`${action}:email:${emailKey}`)
  }
}
