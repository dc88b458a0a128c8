/**
 * A numeric id as it may appear in a URL: plain decimal digits, no sign, no leading zero, at most
 * 15 digits. `Number()` would also read `0x2`, `2e0` or `0000000000000000000002` as 2, so the
 * same product would answer under many spellings; at most 15 digits keeps the number a safe
 * integer that fits every id column (a 5,000-digit id became Infinity and MariaDB failed on it).
 */
const DECIMAL_ID = /^[1-9][0-9]{0,14}$/

/** The id a URL segment names, or null when it is not a plain decimal id. */
export function parseNumericId(value: unknown): number | null {
  return typeof value === 'string' && DECIMAL_ID.test(value) ? Number(value) : null
}

/**
 * Matcher for numeric route ids (`.where('id', numericId)`): any other spelling does not match,
 * never reaches SQL, and the caller gets the JSON 404 of an unknown path.
 */
export const numericId = {
  match: DECIMAL_ID,
  cast: (value: string) => Number(value),
}
