import type { Infer } from '@vinejs/vine/types'
import { cardCodeValidator, newProfileValidator } from '#profiles/validators/profile_validator'

export type NewProfileInput = Infer<typeof newProfileValidator>

/**
 * A profile and a card's security code as other modules receive them (the one-step checkout,
 * the CVV asked for again): checked by profiles' own validators, so the rules live in one place.
 */
export const profileInput = {
  newProfile: (input: unknown): Promise<NewProfileInput> => newProfileValidator.validate(input),
  async cardCode(input: unknown): Promise<string> {
    const { code } = await cardCodeValidator.validate(input)
    return code
  },
}
