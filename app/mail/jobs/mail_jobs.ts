import { defineJob } from '#core/jobs/job'

/**
 * A read of the catch-all mailbox (MAIL_INTAKE_IMAP_URL): every message handed to the intake
 * and moved to the done folder. On a schedule, embedded or on workers; `dropslot mail:listen`
 * holds an IDLE connection instead for installs that want mail read the moment it lands.
 */
export const readMailboxJob = defineJob({
  name: 'mail.read-mailbox',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { configuredImapReader } = await import('#mail/services/imap_reader')
    const reader = configuredImapReader()
    if (!reader) return { read: 0 }
    const reports = await reader.readOnce()
    return { read: reports.length }
  },
})

/** The raw messages past MAIL_RETENTION_DAYS deleted; their evidence stays. */
export const purgeMailJob = defineJob({
  name: 'mail.purge-raw',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { mailIntake } = await import('#mail/services/mail_intake')
    return { purged: await mailIntake.purgeRaw() }
  },
})
