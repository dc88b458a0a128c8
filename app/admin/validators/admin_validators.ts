import { FAILURE_CODES } from '#orders/services/failure_reasons'
import { ACCOUNT_ROLES } from '#shared/staff_roles'
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { dateTime, ruleMessages } from '#core/helpers/vine_fields'

/*
| Validators of the admin API. Shapes are checked here; business rules (sizes that fit the size
| type, stock never below what is taken, unique codes) live in the services. Field names are the
| record's own, so the console shows each message under its input.
*/

const messages = new SimpleMessagesProvider(
  {
    ...ruleMessages,
    'email': 'Please enter a valid e-mail address.',
    'uuid': '{{ field }} must be an id like 0b6c7c2e-5b1e-4f4e-9d3a-2a1f4c5e6d7f.',
    'userId.required': 'Please choose the customer (userId or email).',
    'code.regex': 'Use 2 to 40 letters, digits, dashes or underscores.',
    'phone.regex': 'Phone must be at most 15 digits.',
  },
  {
    productId: 'Product id',
    userId: 'Customer',
    profileId: 'Profile',
    confirmationNumber: 'Confirmation number',
    percent: 'Percent',
    maxUses: 'Max uses',
    startsAt: 'Start',
    expiresAt: 'Expiry',
    firstName: 'First name',
    lastName: 'Last name',
  }
)

/** The spec's `POST /api/admin/products/edit`: the product, with its id in the body. */
export const specEditProductValidator = vine.compile(
  vine.object({
    productId: vine.number().withoutDecimals().min(1),
  })
)
specEditProductValidator.messagesProvider = messages

const promoFields = {
  code: vine
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{2,40}$/),
  percent: vine.number().withoutDecimals().min(1).max(100),
  startsAt: dateTime().optional().nullable(),
  expiresAt: dateTime().optional().nullable(),
  maxUses: vine.number().withoutDecimals().min(1).max(100_000_000).optional().nullable(),
  active: vine.boolean().optional(),
}

export const createPromoValidator = vine.compile(vine.object(promoFields))
createPromoValidator.messagesProvider = messages

export const updatePromoValidator = vine.compile(
  vine.object({
    code: promoFields.code.clone().optional(),
    percent: vine.number().withoutDecimals().min(1).max(100).optional(),
    startsAt: dateTime().optional().nullable(),
    expiresAt: dateTime().optional().nullable(),
    maxUses: vine.number().withoutDecimals().min(1).max(100_000_000).optional().nullable(),
    active: vine.boolean().optional(),
  })
)
updatePromoValidator.messagesProvider = messages

const phoneRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string' || !/^\+?\d{1,15}$/.test(value.replace(/[\s-]/g, ''))) {
    field.report('Phone must be at most 15 digits.', 'regex', field)
  }
})

export const updateCustomerValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(64).optional(),
    firstName: vine.string().trim().maxLength(15).optional().nullable(),
    lastName: vine.string().trim().maxLength(20).optional().nullable(),
    phone: vine
      .string()
      .trim()
      .use(phoneRule())
      // VineJS runs transforms on null too; null clears the phone.
      .transform((value) => (typeof value === 'string' ? value.replace(/[\s-]/g, '') : value))
      .optional()
      .nullable(),
    role: vine.enum(ACCOUNT_ROLES).optional(),
  })
)
updateCustomerValidator.messagesProvider = messages

/** POST /api/admin/orders/:id/mark: the result of an order, set by hand. */
export const markOrderValidator = vine.compile(
  vine.object({
    status: vine.enum(['success', 'fail'] as const),
    confirmationNumber: vine.string().trim().maxLength(120).optional().nullable(),
    reason: vine.string().trim().maxLength(255).optional().nullable(),
    reasonCode: vine.enum(FAILURE_CODES).optional().nullable(),
  })
)
markOrderValidator.messagesProvider = messages

/** The why of a money tool (refund, waive, retry, correct): required, it goes to the audit log. */
const toolReason = () => vine.string().trim().minLength(3).maxLength(255)

/** POST /api/admin/orders/:id/refund {amount? (dollars), reason}: all that is left when no amount. */
export const refundOrderValidator = vine.compile(
  vine.object({
    amount: vine.number().positive().max(100000).decimal([0, 2]).optional().nullable(),
    reason: toolReason(),
  })
)
refundOrderValidator.messagesProvider = messages

/** POST /api/admin/orders/:id/(waive-fee|retry) {reason}. */
export const orderToolValidator = vine.compile(vine.object({ reason: toolReason() }))
orderToolValidator.messagesProvider = messages

/** POST /api/admin/orders/:id/correct {reason, reasonCode?}: success -> fail, fee refunded. */
export const correctOrderValidator = vine.compile(
  vine.object({
    reason: toolReason(),
    reasonCode: vine.enum(FAILURE_CODES).optional().nullable(),
  })
)
correctOrderValidator.messagesProvider = messages

/**
 * POST /api/admin/orders(/create): an order for a customer (by uuid or e-mail). Only shapes here;
 * stock, sizes, styles, profile ownership, card on file and promo rules are the checkout's.
 */
export const createOrderValidator = vine.compile(
  vine.object({
    userId: vine.string().trim().uuid().optional().requiredIfMissing('email'),
    email: vine.string().trim().email().maxLength(254).optional(),
    productId: vine.number().withoutDecimals().min(1),
    style: vine.string().trim().maxLength(80).optional(),
    size: vine.string().trim().maxLength(20).optional(),
    profileId: vine.string().trim().uuid(),
    promoCode: vine.string().trim().maxLength(40).optional().nullable(),
  })
)
createOrderValidator.messagesProvider = messages

/** DELETE /api/admin/orders/:id: why (optional; kept on the order and in the audit log). */
export const cancelOrderValidator = vine.compile(
  vine.object({
    reason: vine.string().trim().maxLength(255).optional().nullable(),
  })
)
cancelOrderValidator.messagesProvider = messages
