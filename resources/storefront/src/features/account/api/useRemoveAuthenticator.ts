import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'

/** POST /api/user/totp/remove {code}: sign-in asks for the password only again. */
export function useRemoveAuthenticator() {
  return useMutation(async (code: string) => {
    const answer = await api('POST /api/user/totp/remove', { auth: true, body: { code } })
    invalidate('user:info:')
    return answer
  })
}
