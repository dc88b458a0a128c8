import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'

/*
| Every message is written to the outbox (email_messages) as "queued" whatever the writer's
| settings; the process that delivers it sends it over SMTP when SMTP_HOST is set. Without SMTP,
| outside production, it is kept instead: status "kept", read in the console's mailbox
| (MAILBOX_URL), never sent. Production refuses to start without SMTP_HOST.
*/
if (env.get('NODE_ENV') === 'production' && !env.get('SMTP_HOST')) {
  throw new Error(
    'Mail configuration refused:\n- SMTP_HOST is not set: production sends its e-mail over SMTP ' +
      '(set SMTP_HOST, and SMTP_PORT, SMTP_USERNAME, SMTP_PASSWORD as the mail provider asks)'
  )
}

/** The console's mailbox: the e-mails kept instead of sent. */
export const MAILBOX_URL = '/admin/mailbox'

export type MailDestination = 'smtp' | 'mailbox'

/** Where a message delivered now goes, read on each use; null: nowhere (it stays queued). */
export function mailDestination(): MailDestination | null {
  if (env.get('SMTP_HOST')) return 'smtp'
  return env.get('NODE_ENV') === 'production' ? null : 'mailbox'
}

/** false: the web process leaves the `email` queue to another process (embedded driver). */
export const emailWorkerEnabled = env.get('EMAIL_WORKER_ENABLED', true)

function parseFrom(value: string) {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(value)
  return match ? { name: match[1], address: match[2] } : { name: 'Dropslot', address: value.trim() }
}

const mailConfig = defineConfig({
  default: 'smtp',
  from: parseFrom(env.get('MAIL_FROM', 'Dropslot <no-reply@dropslot.test>')),
  mailers: {
    smtp: transports.smtp({
      host: env.get('SMTP_HOST', '127.0.0.1'),
      port: env.get('SMTP_PORT', 587),
      secure: env.get('SMTP_SECURE', false),
      ...(env.get('SMTP_USERNAME')
        ? {
            auth: {
              type: 'login' as const,
              user: env.get('SMTP_USERNAME')!,
              pass: env.get('SMTP_PASSWORD', ''),
            },
          }
        : {}),
    }),
  },
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
