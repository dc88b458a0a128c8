import { api } from '../../../shared/api/client'
import { invalidate, useMutation } from '../../../shared/api/query'

/** POST /api/session/totp {code}: the first code proves the authenticator; recovery codes back. */
export function useConfirmAuthenticator() {
  return useMutation(async (code: string) => {
    const answer = await api('POST /api/session/totp', { auth: true, body: { code } })
    invalidate('user:info:')
    return answer
  })
}
