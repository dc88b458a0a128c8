import app from '@adonisjs/core/services/app'
import env from '#start/env'
import dropslotConfig from '#config/dropslot'
import { MAILBOX_URL } from '#config/mail'
import { DEMO_ADMIN, DEMO_ADMIN_TOTP_SECRET, DEMO_CUSTOMER } from '#database/seeders/demo_seeder'

/*
| The last lines `npm start` prints once the server listens: where the storefront and the console
| are, the demo logins (outside production only: the demo is never seeded there) and where
| e-mails go.
*/
export type BannerSettings = {
  appUrl: string
  production: boolean
  smtp: { host: string; port: number } | null
}

export function bannerSettings(): BannerSettings {
  const host = env.get('SMTP_HOST')
  return {
    appUrl: dropslotConfig.appUrl,
    production: app.inProduction,
    smtp: host ? { host, port: env.get('SMTP_PORT', 587) } : null,
  }
}

export function firstRunBanner(settings: BannerSettings = bannerSettings()): string[] {
  const url = settings.appUrl.replace(/\/+$/, '')
  const lines = ['Dropslot is running.', `  Storefront     ${url}`, `  Admin console  ${url}/admin`]
  if (!settings.production) {
    lines.push(
      `  Demo customer  ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`,
      `  Demo admin     ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}, ` +
        `authenticator secret ${DEMO_ADMIN_TOTP_SECRET}`
    )
  }
  lines.push(
    settings.smtp
      ? `  E-mails are sent through SMTP at ${settings.smtp.host}:${settings.smtp.port}`
      : `  E-mails go to the console's mailbox at ${url}${MAILBOX_URL} (SMTP is not configured)`
  )
  return lines
}
