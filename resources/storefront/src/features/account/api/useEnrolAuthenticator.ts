import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/** POST /api/session/totp/enrol: a new secret and its otpauth:// link, until a code proves it. */
export function useEnrolAuthenticator() {
  return useMutation(() => api('POST /api/session/totp/enrol', { auth: true }))
}
