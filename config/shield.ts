import { defineConfig } from '@adonisjs/shield'
import dropslotConfig from '#config/dropslot'

/*
| Security headers on every answer (pages, static files, the API, errors), applied by
| app/core/middleware/security_headers_middleware.ts. CSRF stays off: the API authenticates with
| bearer tokens, not cookies, so there is no ambient credential to forge requests with.
|
| The content security policy allows the app's own origin, plus the hosts of each storefront
| integration that is configured (an integration left unset adds nothing).
*/

const integrations = dropslotConfig.storefrontIntegrations

type Sources = Record<'script' | 'style' | 'img' | 'font' | 'connect' | 'frame', string[]>

/** The hosts each third-party piece loads from, by directive. */
const THIRD_PARTY: Record<keyof typeof integrations, Partial<Sources>> = {
  // Google Maps JavaScript API (Places autocomplete).
  mapsApiKey: {
    script: ['https://maps.googleapis.com', 'https://maps.gstatic.com'],
    style: ['https://fonts.googleapis.com'],
    img: ['https://maps.googleapis.com', 'https://maps.gstatic.com'],
    font: ['https://fonts.gstatic.com'],
    connect: ['https://maps.googleapis.com'],
  },
  // Intercom messenger.
  chatWidgetId: {
    script: ['https://widget.intercom.io', 'https://js.intercomcdn.com'],
    img: [
      'https://js.intercomcdn.com',
      'https://static.intercomassets.com',
      'https://downloads.intercomcdn.com',
    ],
    font: ['https://js.intercomcdn.com', 'https://fonts.intercomcdn.com'],
    connect: ['https://*.intercom.io', 'wss://*.intercom.io', 'https://uploads.intercomcdn.com'],
    frame: ['https://intercom-sheets.com'],
  },
  // Google Tag Manager and the analytics it loads.
  analyticsId: {
    script: ['https://www.googletagmanager.com', 'https://www.google-analytics.com'],
    img: ['https://www.googletagmanager.com', 'https://www.google-analytics.com'],
    connect: [
      'https://www.google-analytics.com',
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
    ],
  },
  // The social timeline embed (platform.twitter.com widgets).
  socialTimelineUrl: {
    script: ['https://platform.twitter.com', 'https://cdn.syndication.twimg.com'],
    style: ['https://platform.twitter.com'],
    img: ['https://pbs.twimg.com', 'https://syndication.twitter.com'],
    frame: ['https://platform.twitter.com', 'https://syndication.twitter.com'],
  },
  // Stripe.js (fraud signals on the storefront).
  cardProviderKey: {
    script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
    connect: ['https://api.stripe.com'],
    frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  },
}

type Integrations = { [Name in keyof typeof integrations]: string | null }

/** The content security policy for the integrations that are configured. */
export function contentSecurityDirectives(configured: Integrations) {
  const sources = (kind: keyof Sources): string[] => {
    const hosts = new Set<string>()
    for (const [name, value] of Object.entries(configured)) {
      if (!value) continue
      for (const host of THIRD_PARTY[name as keyof Integrations][kind] ?? []) hosts.add(host)
    }
    return [...hosts]
  }
  const frames = sources('frame')
  return {
    defaultSrc: [`'self'`],
    scriptSrc: [`'self'`, ...sources('script')],
    // The console's UI library injects <style> tags at run time, and its page shell and the
    // placeholder page carry inline styles: styles (never scripts) may be inline.
    styleSrc: [`'self'`, `'unsafe-inline'`, ...sources('style')],
    // Product images may be any https URL an admin entered.
    imgSrc: [`'self'`, 'data:', 'https:'],
    fontSrc: [`'self'`, 'data:', ...sources('font')],
    connectSrc: [`'self'`, ...sources('connect')],
    frameSrc: frames.length > 0 ? frames : [`'none'`],
    objectSrc: [`'none'`],
    baseUri: [`'self'`],
    formAction: [`'self'`],
    frameAncestors: [`'none'`],
  }
}

const shieldConfig = defineConfig({
  csp: {
    enabled: true,
    directives: contentSecurityDirectives(integrations),
    reportOnly: false,
  },
  csrf: {
    enabled: false,
  },
  xFrame: {
    enabled: true,
    action: 'DENY',
  },
  // Sent only on answers served over HTTPS (the middleware drops it on plain HTTP, where it
  // means nothing and would pin localhost to HTTPS in a developer's browser).
  hsts: {
    enabled: true,
    maxAge: '180 days',
    includeSubDomains: true,
  },
  contentTypeSniffing: {
    enabled: true,
  },
})

export default shieldConfig
