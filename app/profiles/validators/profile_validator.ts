import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { expandYear, INVALID_CARD, isUsableCard, normalizeCardNumber } from '#core/helpers/cards'

export { INVALID_CARD }

const text = (max: number) => vine.string().trim().minLength(1).maxLength(max)

const address = () =>
  vine.object({
    address1: text(120),
    address2: vine.string().trim().maxLength(120).optional().nullable(),
    firstName: text(15),
    lastName: text(20),
    city: text(80),
    zip: text(16),
    state: text(64),
    country: vine.string().trim().toUpperCase().fixedLength(2).optional(),
  })

const cardRule = vine.createRule((value, _options, field) => {
  const card = value as { number?: unknown; month?: unknown; year?: unknown } | null
  if (!card || typeof card.number !== 'string') return
  if (!isUsableCard(card.number, card.month, card.year)) {
    field.report(INVALID_CARD, 'card', field)
  }
})

const card = () =>
  vine
    .object({
      name: vine.string().trim().maxLength(64).optional().nullable(),
      number: vine
        .string()
        .trim()
        .maxLength(23)
        .transform((value) => normalizeCardNumber(value)),
      code: vine
        .string()
        .trim()
        .regex(/^\d{3,4}$/),
      month: vine.any().transform((value) => String(value).padStart(2, '0')),
      year: vine.any().transform((value) => String(expandYear(String(value)))),
      cardType: vine.string().trim().maxLength(24).optional().nullable(),
    })
    .use(cardRule())

const profileFields = {
  profileName: text(64),
  email: vine.string().trim().maxLength(254).email().normalizeEmail({ all_lowercase: true }),
  phone: vine
    .string()
    .trim()
    .regex(/^\+?[\d\s-]{1,20}$/)
    .use(
      vine.createRule((value, _options, field) => {
        if (typeof value !== 'string' || value.replace(/[\s+-]/g, '').length > 15) {
          field.report('Phone must be at most 15 digits.', 'regex', field)
        }
      })()
    )
    .transform((value) => value.replace(/[\s-]/g, '')),
  shipping: address(),
  billing: address(),
  /** Keep the card's security code for later releases (otherwise it is deleted after use). */
  keepCardCode: vine.boolean().optional(),
}

/**
 * The decrypted `eProfile` of profiles/add: what an encrypted profile must have
 * (docs/product.md, "Validation").
 */
export const newProfileValidator = vine.compile(vine.object({ ...profileFields, card: card() }))

/** profiles/edit: the same, with the profile's id; the card may be left out to keep the saved one. */
export const editProfileValidator = vine.compile(
  vine.object({
    ...profileFields,
    profileId: vine.string().trim().maxLength(64),
    card: card().optional(),
  })
)

/** The card security code entered again at checkout, for a profile whose code was deleted. */
export const cardCodeValidator = vine.compile(
  vine.object({
    code: vine
      .string()
      .trim()
      .regex(/^\d{3,4}$/),
  })
)

const messages = new SimpleMessagesProvider({
  'required': 'Please complete the form.',
  'minLength': 'Please complete the form.',
  'email': 'Please enter a valid e-mail address.',
  'phone.regex': 'Phone must be at most 15 digits.',
  'card.code.regex': INVALID_CARD,
  'maxLength': 'The {{ field }} field must be at most {{ max }} characters.',
  'fixedLength': 'Country must be a two-letter code.',
})
newProfileValidator.messagesProvider = messages
editProfileValidator.messagesProvider = messages
