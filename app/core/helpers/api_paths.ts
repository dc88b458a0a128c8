/** `/api` and everything under it: never a file, never the storefront. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/')
}
