/** Spec "Navigation guard": the public paths; every other path needs a stored user with a token. */
export const PUBLIC_PATHS = [
  '/login',
  '/signup',
  '/',
  '/how-it-works',
  '/terms',
  '/forgot',
  '/reset',
  '/testimonials',
  '/refund-policy',
  '/shop',
  '/products',
  '/releases',
]

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path)

/** Where the guard sends a navigation to `path`, or null to let it through. */
export function guardRedirect(path: string, hasStoredUser: boolean): string | null {
  const target = normalise(path)
  // The reset page is public, matched by a path containing 'reset'; so are a draw's proof and a
  // waiting room's line, which anyone may check without an account, and a release's outcome
  // report, which anyone may read.
  const isPublic =
    PUBLIC_PATHS.includes(target) ||
    target.includes('reset') ||
    /^\/product\/\d+\/(draw|line)$/.test(target) ||
    /^\/releases\/\d+$/.test(target)
  if (!isPublic && !hasStoredUser) return '/login'
  if (hasStoredUser && (target === '/login' || target === '/signup')) return '/'
  return null
}
