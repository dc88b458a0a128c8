import { api } from './client'
import { useMutation } from './query'
import { seal } from '../lib/envelope'
import { getConfig } from '../config'

export type CardObject = {
  name: string
  number: string
  exp_month: string
  exp_year: string
  cvc: string
  address_zip: string
}

/** POST /api/user/billing/genToken with the card sealed in the transport envelope; answers the token id. */
export function useGenCardToken() {
  return useMutation(async (card: CardObject) => {
    const encrypted = await seal(getConfig().profileTransportKey, card)
    const result = await api('POST /api/user/billing/genToken', {
      auth: true,
      body: { encrypted },
    })
    return result.id
  })
}
