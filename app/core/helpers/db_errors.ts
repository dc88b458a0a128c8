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
