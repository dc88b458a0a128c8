/**
 * Column options for JSON stored in a TEXT column (portable between SQLite and MariaDB).
 */
export const jsonColumn = {
  prepare: (value: unknown) =>
    value === null || value === undefined ? null : JSON.stringify(value),
  consume: (value: unknown) => {
    if (value === null || value === undefined || value === '') return null
    if (typeof value !== 'string') return value
    return JSON.parse(value)
  },
}

/** Booleans come back from SQLite as 0/1 and from MariaDB as tinyint. */
export const booleanColumn = {
  consume: (value: unknown) => value === true || value === 1 || value === '1',
}
