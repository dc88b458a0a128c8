import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'

/*
| E-mail goes out over SMTP when SMTP_HOST is set. Every message is written to the outbox
| (email_messages) as "queued" whatever the writer's settings; a process with SMTP delivers it.
*/
export const smtpConfigured = Boolean(env.get('SMTP_HOST'))

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
