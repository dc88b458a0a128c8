import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Whether an Authorization header carries the bearer token (compared in constant time). */
export function tokenMatches(header: string | undefined | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  if (!match) return false
  return timingSafeEqual(digest(match[1]), digest(token))
}
