import { api } from './client'
import { setQueryData, useMutation } from './query'

/**
 * POST /api/user/billing/confirmCard after the 3-D Secure challenge: the card saved (the user),
 * the challenge again while it is not answered, or an ApiError when the bank refused it.
 */
export function useConfirmCard() {
  return useMutation(async (setupId: string) => {
    const result = await api('POST /api/user/billing/confirmCard', {
      auth: true,
      body: { setupId },
    })
    if (result.success) setQueryData(`user:info:${result.user.uuid}`, result.user)
    return result
  })
}
