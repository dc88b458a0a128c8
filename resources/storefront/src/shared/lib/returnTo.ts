/**
 * Where a visitor was going when the guard sent them to log in (`?next=/product/12`), kept through
 * sign-up and its billing and card steps so they land back on it. Only paths of this site: an
 * absolute or protocol-relative URL is ignored (no open redirect), and so are the auth pages.
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next')
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null
  if (/^\/(login|signup)(\/|\?|$)/.test(next)) return null
  return next
}

/** `path` carrying the return path along (`/addCard?next=...`), or `path` when there is none. */
export function withReturnPath(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path
}
