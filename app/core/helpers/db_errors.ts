/** True when the database refused a write because of a unique index (SQLite or MariaDB). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; errno?: number } | null
  if (!candidate) return false
  return (
    candidate.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    candidate.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    candidate.code === 'ER_DUP_ENTRY' ||
    candidate.errno === 1062
  )
}

/** Rows changed by an UPDATE, whatever shape the driver returns. */
export function affectedRows(result: unknown): number {
  if (typeof result === 'number') return result
  if (Array.isArray(result)) return affectedRows(result[0])
  const candidate = result as { affectedRows?: number; changes?: number } | null
  return candidate?.affectedRows ?? candidate?.changes ?? 0
}

/** Driver codes of a database that cannot be reached or refuses connections (not a bad query). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_ACCESS_DENIED_ERROR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
])

/**
 * True when a query failed because the database is out of reach (down, refusing connections,
 * the pool unable to hand out a connection), as opposed to a query that is wrong. Callers answer
 * such failures as "try again later" (503), never as a bug.
 */
export function isDatabaseUnavailable(error: unknown, wrapped = false): boolean {
  const candidate = error as { code?: unknown; name?: unknown; cause?: unknown } | null
  if (!candidate || typeof candidate !== 'object') return false
  if (candidate.name === 'KnexTimeoutError') return true
  if (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(candidate.code)) return true
  return !wrapped && isDatabaseUnavailable(candidate.cause, true)
}
