import { api } from '../../../shared/api/client'
import { useMutation } from '../../../shared/api/query'

/** GET /api/addEmail?email= : the newsletter sign-up. */
export function useAddEmail() {
  return useMutation((email: string) => api('GET /api/addEmail', { query: { email } }))
}
