import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/** POST /api/forgotpw {email}: the answer never says whether the e-mail has an account. */
export function useForgotPassword() {
  return useMutation((email: string) => api('POST /api/forgotpw', { body: { email } }))
}
