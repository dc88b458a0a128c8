import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/** POST /login {email, password} */
export function useLogin() {
  return useMutation((email: string, password: string) =>
    api('POST /login', { body: { email, password } })
  )
}
