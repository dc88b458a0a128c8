import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { expandYear, INVALID_CARD, isUsableCard, normalizeCardNumber } from '#core/helpers/cards'

export { INVALID_CARD }

/**
 * The decrypted `encrypted` card of billing/genToken: {name, number, exp_month, exp_year, cvc,
 * address_zip}. Luhn, the refused prefixes (4767, 4859), a real month and a future expiry.
 */
const cardRule = vine.createRule((value, _options, field) => {
  const card = value as { number?: unknown; exp_month?: unknown; exp_year?: unknown } | null
  if (!card || typeof card.number !== 'string') return
  if (!isUsableCard(card.number, card.exp_month, card.exp_year)) {
    field.report(INVALID_CARD, 'card', field)
  }
})

export const cardTokenValidator = vine.compile(
  vine
    .object({
      name: vine.string().trim().maxLength(64).optional().nullable(),
      number: vine
        .string()
        .trim()
        .maxLength(23)
        .transform((value) => normalizeCardNumber(value)),
      exp_month: vine
        .any()
        .transform((value) => Number(String(value).trim()))
        .optional(),
      exp_year: vine
        .any()
        .transform((value) => expandYear(String(value).trim()))
        .optional(),
      cvc: vine
        .string()
        .trim()
        .regex(/^\d{3,4}$/),
      address_zip: vine.string().trim().maxLength(16).optional().nullable(),
    })
    .use(cardRule())
)
cardTokenValidator.messagesProvider = new SimpleMessagesProvider({
  required: INVALID_CARD,
  string: INVALID_CARD,
  regex: INVALID_CARD,
  maxLength: INVALID_CARD,
})
