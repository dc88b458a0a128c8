/**
 * Matcher for numeric route ids (`.where('id', numericId)`). At most 15 digits, so the number
 * is always a safe integer and fits every id column: a longer one never reaches SQL (a
 * 5,000-digit id became Infinity and MariaDB failed on it); the route does not match and the
 * caller gets the JSON 404 of an unknown path.
 */
export const numericId = {
  match: /^[0-9]{1,15}$/,
  cast: (value: string) => Number(value),
}
