import env from '#start/env'

/*
| Product settings that are not framework settings. Secrets come from the environment only.
*/
export type VaultKey = { id: string; key: Buffer }

function parseVaultKeys(raw: string): VaultKey[] {
  const keys = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, hex] = entry.split(':')
      if (!id || !/^[A-Za-z0-9_-]{1,16}$/.test(id) || !hex || !/^[0-9a-fA-F]{64}$/.test(hex)) {
        throw new Error('VAULT_KEYS must be "id:64-hex-chars[,id:64-hex-chars...]"')
      }
      return { id, key: Buffer.from(hex, 'hex') }
    })
  if (keys.length === 0) throw new Error('VAULT_KEYS needs at least one key')
  return keys
}

/** An unset or blank variable is null, so the storefront can tell "not configured" at a glance. */
const optional = (value: string | undefined) => (value && value.trim() ? value.trim() : null)

const dropslotConfig = {
  supportEmail: env.get('SUPPORT_EMAIL', 'support@dropslot.test'),
  appUrl: env.get('APP_URL', `http://localhost:${env.get('PORT')}`),
  /** Key of the transport envelope: public by design, handed to the storefront at run time. */
  profileTransportKey: Buffer.from(env.get('PROFILE_TRANSPORT_KEY'), 'hex'),
  /** Server-only keys of the card vault; the first one encrypts, all of them decrypt. */
  vaultKeys: parseVaultKeys(env.get('VAULT_KEYS')),
  passwordResetTtlMinutes: env.get('PASSWORD_RESET_TTL_MINUTES', 60),
  /**
   * How long a profile's card security code is kept after it was entered, when the customer did
   * not choose to keep it and has no active order with the profile.
   */
  cardCodeRetentionHours: env.get('CARD_CODE_RETENTION_HOURS', 24),
  rateLimits: {
    loginPerMinute: env.get('RATE_LIMIT_LOGIN_PER_MINUTE', 10),
    registerPerHour: env.get('RATE_LIMIT_REGISTER_PER_HOUR', 20),
    forgotPerHour: env.get('RATE_LIMIT_FORGOT_PER_HOUR', 5),
    /** Card saves and token requests per customer, and per address (card testing). */
    cardPerHour: env.get('RATE_LIMIT_CARD_PER_HOUR', 10),
    cardPerIpPerHour: env.get('RATE_LIMIT_CARD_IP_PER_HOUR', 20),
    promoPerMinute: env.get('RATE_LIMIT_PROMO_PER_MINUTE', 20),
    /** Reset-token attempts (POST /api/resetpassword) per address: tokens cannot be guessed. */
    resetPerHour: env.get('RATE_LIMIT_RESET_PER_HOUR', 10),
    /** Newsletter sign-ups per address and per e-mail (each one sends an e-mail). */
    newsletterPerHour: env.get('RATE_LIMIT_NEWSLETTER_PER_HOUR', 5),
  },
  /**
   * Public identifiers of the storefront's third-party pieces. Each one is optional: when it is
   * null the storefront loads nothing for it and every page works the same.
   */
  storefrontIntegrations: {
    /** Google Maps Places autocomplete on address fields. */
    mapsApiKey: optional(env.get('MAPS_API_KEY')),
    /** Intercom app id of the chat-support widget (told about every route change). */
    chatWidgetId: optional(env.get('CHAT_WIDGET_ID')),
    /** Google Tag Manager container id; a purchase event goes to window.dataLayer after an order. */
    analyticsId: optional(env.get('ANALYTICS_ID')),
    /** Profile URL of the social timeline embedded on the home and testimonials pages. */
    socialTimelineUrl: optional(env.get('SOCIAL_TIMELINE_URL')),
    /** Stripe publishable key: loads Stripe.js on the storefront for the provider's fraud signals. */
    cardProviderKey: optional(env.get('CARD_PROVIDER_PUBLISHABLE_KEY')),
  },
}

export default dropslotConfig
