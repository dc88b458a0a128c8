import { clock } from '#core/services/clock'
import { mailDoors } from '#mail/services/mail_doors'
import { defineRule } from '#alerts/rules/rule'

/**
 * The retailers' mailbox cannot be read (the mail intake's IMAP door failing for
 * ALERT_MAIL_UNREADABLE_MINUTES): confirmations and cancellations are not arriving, so fees wait
 * and cancelled orders are not refunded. One incident per door.
 */
export const mailUnreadable = defineRule({
  id: 'mail_unreadable',
  description: 'Mail intake unreadable for 5 minutes',
  async evaluate({ thresholds }) {
    const limitMs = thresholds.mailUnreadableMinutes * 60_000
    const states = await mailDoors.states()
    return states
      .filter(
        (state) => state.failingSince && clock.nowMs() - Date.parse(state.failingSince) >= limitMs
      )
      .map((state) => {
        const minutes = Math.floor((clock.nowMs() - Date.parse(state.failingSince!)) / 60_000)
        return {
          subject: state.door,
          title: `Mail intake unreadable for ${minutes} minutes (${state.door})`,
          detail:
            `The ${state.door.toUpperCase()} door of the mail intake has failed since ` +
            `${state.failingSince} (${state.lastError ?? 'no error text'}): retailers' ` +
            'confirmations and cancellations are not being read. Check MAIL_INTAKE_IMAP_URL, ' +
            'the mailbox password and the server; `dropslot mail:status` shows the doors.',
          value: minutes,
          threshold: thresholds.mailUnreadableMinutes,
        }
      })
  },
})
