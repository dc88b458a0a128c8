import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

export type Registration = {
  email: string
  phone: string
  password: string
  name: string
  firstName: string
  lastName: string
}

/** POST /register {email, phone, password, name, firstName, lastName} */
export function useRegister() {
  return useMutation((payload: Registration) => api('POST /register', { body: payload }))
}
