import vine, { SimpleMessagesProvider } from '@vinejs/vine'

const messages = new SimpleMessagesProvider({
  'required': 'The {{ field }} field is required.',
  'string': 'The {{ field }} field must be text.',
  'object': 'The {{ field }} field must be an object.',
  'maxLength': 'The {{ field }} field must be at most {{ max }} characters.',
  'keys.p256dh.regex': "The subscription's p256dh key must be a P-256 public key (base64url).",
  'keys.auth.regex': "The subscription's auth secret must be 16 bytes (base64url).",
})

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const pushSubscriptionValidator = vine.compile(
  vine.object({
    endpoint: vine.string().trim().maxLength(1000),
    keys: vine.object({
      // 65 bytes, uncompressed point (0x04...): 87 base64url characters without padding.
      p256dh: vine
        .string()
        .trim()
        .regex(/^B[A-Za-z0-9_-]{86}=?$/),
      // 16 bytes: 22 characters.
      auth: vine
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{22}(?:==)?$/),
    }),
  })
)
pushSubscriptionValidator.messagesProvider = messages

export const pushEndpointValidator = vine.compile(
  vine.object({ endpoint: vine.string().trim().maxLength(1000) })
)
pushEndpointValidator.messagesProvider = messages

export const discordWebhookValidator = vine.compile(
  vine.object({ url: vine.string().trim().maxLength(300) })
)
discordWebhookValidator.messagesProvider = messages
