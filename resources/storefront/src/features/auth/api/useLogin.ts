import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'
import type { UserInfo } from '../../../shared/api/types'

export type AuthAnswer = { success: boolean; token?: string; user?: UserInfo; error?: string }

/** POST /login {email, password} */
export function useLogin() {
  return useMutation((email: string, password: string) =>
    api<AuthAnswer>('/login', { method: 'POST', body: { email, password } })
  )
}
