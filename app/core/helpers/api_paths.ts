/** `/api` and everything under it, and the live-update stream: never a file, never the storefront. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/__transmit/')
}
