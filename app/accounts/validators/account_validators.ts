import vine, { SimpleMessagesProvider } from '@vinejs/vine'

const messages = new SimpleMessagesProvider({
  'required': 'The {{ field }} field is required.',
  'string': 'The {{ field }} field must be text.',
  'email': 'Please enter a valid e-mail address.',
  'password.minLength': 'Password must be at least 8 characters.',
  'phone.regex': 'Phone must be at most 15 digits.',
  'firstName.maxLength': 'First name must be at most 15 characters.',
  'lastName.maxLength': 'Last name must be at most 20 characters.',
  'maxLength': 'The {{ field }} field must be at most {{ max }} characters.',
  'confirmPassword.sameAs': 'Passwords do not match.',
  'object': 'The {{ field }} field must be an object.',
})

const email = () =>
  vine.string().trim().maxLength(254).email().normalizeEmail({ all_lowercase: true })
const phoneRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string' || !/^\+?\d{1,15}$/.test(value.replace(/[\s-]/g, ''))) {
    field.report('Phone must be at most 15 digits.', 'regex', field)
  }
})

/** Dashes and spaces are stripped (the rule ignores them too), as the sign-up form does. */
const phone = () =>
  vine
    .string()
    .trim()
    .use(phoneRule())
    .transform((value) => value.replace(/[\s-]/g, ''))

export const loginValidator = vine.compile(
  vine.object({
    email: vine.string().trim().maxLength(254),
    password: vine.string().maxLength(200),
  })
)
loginValidator.messagesProvider = messages

export const registerValidator = vine.compile(
  vine.object({
    email: email(),
    password: vine.string().minLength(8).maxLength(200),
    phone: phone(),
    firstName: vine.string().trim().minLength(1).maxLength(15),
    lastName: vine.string().trim().minLength(1).maxLength(20),
    name: vine.string().trim().maxLength(64).optional(),
  })
)
registerValidator.messagesProvider = messages

export const registerAdValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(64),
    email: email(),
    password: vine.string().minLength(8).maxLength(200),
    adtoken: vine.string().trim().minLength(1).maxLength(64),
  })
)
registerAdValidator.messagesProvider = messages

export const updateProfileValidator = vine.compile(
  vine.object({
    updates: vine.object({
      name: vine.string().trim().minLength(1).maxLength(64).optional(),
      email: email().optional(),
      phone: phone().optional(),
    }),
  })
)
updateProfileValidator.messagesProvider = messages

export const billingAddressValidator = vine.compile(
  vine.object({
    billingAddress: vine.object({
      address1: vine.string().trim().minLength(1).maxLength(120),
      address2: vine.string().trim().maxLength(120).optional().nullable(),
      city: vine.string().trim().minLength(1).maxLength(80),
      zip: vine.string().trim().minLength(1).maxLength(16),
      state: vine.string().trim().minLength(1).maxLength(64),
      country: vine.string().trim().toUpperCase().fixedLength(2).optional(),
    }),
    token: vine.string().trim().maxLength(128).optional().nullable(),
  })
)
billingAddressValidator.messagesProvider = messages

export const forgotPasswordValidator = vine.compile(vine.object({ email: email() }))
forgotPasswordValidator.messagesProvider = messages

export const resetPasswordValidator = vine.compile(
  vine.object({
    hash: vine.string().trim().minLength(10).maxLength(200),
    password: vine.string().minLength(8).maxLength(200),
    confirmPassword: vine.string().sameAs('password'),
  })
)
resetPasswordValidator.messagesProvider = messages

export const adminAccountValidator = vine.compile(
  vine.object({
    email: email(),
    password: vine.string().minLength(8).maxLength(200),
    name: vine.string().trim().minLength(1).maxLength(64),
  })
)
adminAccountValidator.messagesProvider = messages
