import { api } from '../../../shared/api/client'
import { clearQueries, useMutation } from '../../../shared/api/query'
import { session } from '../../../shared/session/session'

/**
 * POST /api/user/delete {password}: deletes the account and its card data; 422 'wrong_password',
 * 409 'active_orders' while a slot is still waiting for release day. Signs out on success.
 */
export function useDeleteAccount() {
  return useMutation(async (password: string) => {
    await api('POST /api/user/delete', {
      auth: true,
      body: { password },
    })
    session.clear()
    clearQueries()
  })
}
