import { useEffect } from 'react'
import { useLogout } from 'react-admin'
import { STAFF_IDLE_MS } from '@shared/staff_roles'

const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

/**
 * Signs the console out after 15 minutes without a click or a key (PCI DSS 8.2.8). The server
 * ends an unused token at the same mark; this also covers a page left open whose own refreshes
 * would otherwise keep the session alive.
 */
export function IdleSignOut() {
  const logout = useLogout()
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>
    const restart = () => {
      clearTimeout(timer)
      timer = setTimeout(() => logout(), STAFF_IDLE_MS)
    }
    restart()
    for (const event of ACTIVITY) window.addEventListener(event, restart, { passive: true })
    return () => {
      clearTimeout(timer)
      for (const event of ACTIVITY) window.removeEventListener(event, restart)
    }
  }, [logout])
  return null
}
