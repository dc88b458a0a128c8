import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/**
 * The second step of a sign-in for an account with an authenticator: its code (or a recovery
 * code) with the token the password step gave, which it makes a full one.
 */
export function usePresentCode() {
  return useMutation((token: string, code: string, kind: 'totp' | 'recovery') =>
    kind === 'totp'
      ? api('POST /api/session/totp', { token, body: { code } })
      : api('POST /api/session/recovery', { token, body: { code } })
  )
}
