/**
 * Run-time configuration from GET /api/config, fetched and checked once at start-up (nothing is
 * baked into the build, so a deployment changes keys without rebuilding).
 */
export type Integrations = {
  mapsApiKey: string | null
  chatWidgetId: string | null
  analyticsId: string | null
  socialTimelineUrl: string | null
  cardProviderKey: string | null
}

export type PublicConfig = {
  profileTransportKey: string
  supportEmail: string
  integrations: Integrations
  /** Web push's application server key (VAPID), null when the server has no push set up. */
  pushPublicKey: string | null
}

let loaded: PublicConfig | null = null

const optionalString = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null

export function parseConfig(raw: unknown): PublicConfig {
  const value = (raw ?? {}) as Record<string, unknown>
  const key = value.profileTransportKey
  if (typeof key !== 'string' || !/^[0-9a-fA-F]{64}$/.test(key)) {
    throw new Error('The server sent no valid profileTransportKey.')
  }
  const email = typeof value.supportEmail === 'string' ? value.supportEmail : ''
  const integrations = (value.integrations ?? {}) as Record<string, unknown>
  const timeline = optionalString(integrations.socialTimelineUrl)
  const pushKey = optionalString(value.pushPublicKey)
  return {
    profileTransportKey: key.toLowerCase(),
    supportEmail: email.includes('@') ? email : 'support@dropslot.test',
    integrations: {
      mapsApiKey: optionalString(integrations.mapsApiKey),
      chatWidgetId: optionalString(integrations.chatWidgetId),
      analyticsId: optionalString(integrations.analyticsId),
      socialTimelineUrl: timeline && /^https:\/\//.test(timeline) ? timeline : null,
      cardProviderKey: optionalString(integrations.cardProviderKey),
    },
    pushPublicKey: pushKey && /^[A-Za-z0-9_-]{80,100}$/.test(pushKey) ? pushKey : null,
  }
}

export async function loadConfig(): Promise<PublicConfig> {
  const response = await fetch('/api/config', { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`GET /api/config answered ${response.status}.`)
  loaded = parseConfig(await response.json())
  return loaded
}

export function getConfig(): PublicConfig {
  if (!loaded) throw new Error('The configuration is not loaded yet.')
  return loaded
}
