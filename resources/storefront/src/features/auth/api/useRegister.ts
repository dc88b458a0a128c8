import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'
import type { Registration } from '@shared/api/contract'

export type { Registration }

/** POST /register {email, phone, password, name, firstName, lastName} */
export function useRegister() {
  return useMutation((payload: Registration) => api('POST /register', { body: payload }))
}
