import { useEffect, useState } from 'react'

/**
 * The time now, for screens that compare it with a release or an entry window: read once when
 * the screen mounts and again every `everyMs`, so rendering stays pure and the screen follows the
 * clock.
 */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs)
    return () => window.clearInterval(timer)
  }, [everyMs])
  return now
}
