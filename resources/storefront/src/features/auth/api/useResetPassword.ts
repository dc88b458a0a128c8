import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/** POST /api/resetpassword {hash, password, confirmPassword}; hash is the link's token. */
export function useResetPassword() {
  return useMutation((hash: string, password: string, confirmPassword: string) =>
    api('POST /api/resetpassword', {
      body: { hash, password, confirmPassword },
    })
  )
}
