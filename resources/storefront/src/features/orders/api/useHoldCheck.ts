import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'

/** POST /api/user/orders/:id/hold/authenticate: the challenge of a card check that waits. */
export function useAuthenticateHold() {
  return useMutation(async (orderId: string) => {
    const result = await api('POST /api/user/orders/:orderId/hold/authenticate', {
      params: { orderId },
      auth: true,
    })
    return result.authentication
  })
}

/**
 * POST /api/user/orders/:id/hold/confirm after the challenge: true once the check is placed,
 * false while the bank still waits; an ApiError when the bank refused this try.
 */
export function useConfirmHold() {
  return useMutation(async (orderId: string) => {
    const result = await api('POST /api/user/orders/:orderId/hold/confirm', {
      params: { orderId },
      auth: true,
    })
    invalidate('user:orders:')
    return result.success
  })
}
