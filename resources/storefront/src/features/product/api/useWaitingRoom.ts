import { useCallback, useEffect, useState } from 'react'
import { api, ApiError } from '../../../shared/api/client'
import type { LineStatus } from '@shared/api/contract'
import { session } from '../../../shared/session/session'

const POLL_MS = 3000

/**
 * POST /api/products/:id/queue to join, then GET the same every few seconds: the countdown, the
 * place in line as it moves, and finally the pass the checkout sends. On opening the page, one
 * GET says whether the buyer is in line already (404 `not_in_line` otherwise).
 */
export function useWaitingRoom(productId: number | undefined, enabled: boolean) {
  const [status, setStatus] = useState<LineStatus | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [joined, setJoined] = useState(false)

  const join = useCallback(async () => {
    if (!productId) return
    setError(null)
    try {
      setStatus(
        await api('POST /api/products/:id/queue', { params: { id: productId }, auth: true })
      )
      setJoined(true)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Could not join the line.')
    }
  }, [productId])

  // A buyer already in line (joined on another visit, tab or device) is shown their place at
  // once: the server remembers, so a reload never offers to join again.
  useEffect(() => {
    if (!enabled || !productId || !session.token()) return
    let current = true
    api('GET /api/products/:id/queue', { params: { id: productId }, auth: true })
      .then((found) => {
        if (!current) return
        setStatus(found)
        setJoined(true)
      })
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [enabled, productId])

  useEffect(() => {
    const settled = ['admitted', 'spent', 'expired'].includes(status?.state ?? '')
    if (!enabled || !joined || !productId || settled) return
    const timer = setInterval(() => {
      api('GET /api/products/:id/queue', { params: { id: productId }, auth: true })
        .then(setStatus)
        .catch((failure) =>
          setError(failure instanceof ApiError ? failure.message : 'Could not reach the line.')
        )
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [enabled, joined, productId, status?.state])

  return { status, error, joined, join }
}
