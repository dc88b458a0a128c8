import { api } from './client'
import { invalidate, useMutation } from './query'
import type { ProfileAddress as Address } from '@shared/api/contract'
import { seal } from '../lib/envelope'
import { getConfig } from '../config'

export type ProfileInput = {
  profileId?: string
  profileName: string
  email: string
  phone: string
  shipping: Address
  billing: Address
  /** Keep the card's security code after release day instead of deleting it. */
  keepCardCode?: boolean
  card?: { name: string; number: string; code: string; month: string; year: string }
}

/** POST /api/user/profiles/add {eProfile}: the profile sealed in the transport envelope. */
export function useAddProfile() {
  return useMutation(async (profile: ProfileInput) => {
    const eProfile = await seal(getConfig().profileTransportKey, profile)
    const answer = await api('POST /api/user/profiles/add', {
      auth: true,
      body: { eProfile },
    })
    invalidate('user:profiles')
    return answer.profile
  })
}
