import { useCallback } from 'react'
import { clearQueries } from '../../../shared/api/query'
import { session } from '../../../shared/session/session'

/**
 * POST /api/logout revokes the token on the server; the local session and every cached answer
 * are cleared first, whatever the server says (offline, the token still expires on its own).
 */
export function useLogout() {
  return useCallback(async () => {
    const token = session.token()
    session.clear()
    clearQueries()
    if (!token) return
    await fetch('/api/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    }).catch(() => undefined)
  }, [])
}
