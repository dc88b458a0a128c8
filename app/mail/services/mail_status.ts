import db from '@adonisjs/lucid/services/db'
import { mailIntakeConfig } from '#config/mail_intake'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { mailDoors } from '#mail/services/mail_doors'
import { mailEvidence } from '#mail/services/mail_evidence'
import { releaseResults } from '#release/services/release_results'

/** The intake at a glance: `dropslot mail:status`, the dashboard and /health. */
export const mailStatus = {
  async summary() {
    const config = mailIntakeConfig()
    const since = sqlTime(new Date(clock.nowMs() - 86_400_000))
    const rows = await db
      .from('mail_messages')
      .where('received_at', '>=', since)
      .whereNotNull('action')
      .groupBy('action')
      .select('action')
      .count('* as total')
    const last24h: Record<string, number> = {}
    for (const row of rows) last24h[row.action] = Number(row.total)
    const review = await db.from('mail_messages').where('action', 'review').count('* as total')
    const doors = await mailDoors.states()
    // SUCCESS_EVIDENCE=mail: bot successes still without the retailer's e-mail after the wait.
    const awaitingMailOverdue = mailEvidence.engineSuccessWaits()
      ? await releaseResults.awaitingMailLongerThan(config.successEvidenceWaitHours)
      : []
    return {
      domain: config.domain,
      imap: config.imapUrl ? 'configured' : 'off',
      smtp: config.smtpPort ? `port ${config.smtpPort}` : 'off',
      successEvidence: config.successEvidence,
      doors,
      unreadable: doors.filter((door) => door.unreadable).map((door) => door.door),
      last24h,
      inReview: Number(review[0].total),
      awaitingMailOverdue,
    }
  },
}
