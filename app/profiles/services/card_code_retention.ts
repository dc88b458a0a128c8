import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import dropslotConfig from '#config/dropslot'
import { cardVault } from '#core/services/card_vault'
import { affectedRows } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import type { VaultedCard } from '#profiles/models/profile'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'

const FINAL_ORDER_STATUSES = ['success', 'fail', 'cancelled', 'retailer_cancelled']

export type CardCodePurge = { due: number; purged: number; profileIds: string[] }

/**
 * Deletes the security code from profiles' sealed cards once nothing needs it: the customer did
 * not choose to keep it, no order of theirs with the profile is still active, and it was entered
 * longer ago than the retention. Run by the background loop, `schedule:work` and
 * `dropslot cards:purge`. The next checkout with such a profile asks for the code again.
 */
export class CardCodeRetention {
  async purgeDue(
    options: {
      dryRun?: boolean
      now?: DateTime
      retentionHours?: number
      /**
       * The operator who runs it (`cards:purge`): their pass is audited even when it deletes
       * nothing. The background pass (no actor, "card-retention") is audited when it deletes.
       */
      actor?: AuditActor
    } = {}
  ): Promise<CardCodePurge> {
    const now = options.now ?? DateTime.now()
    const hours = options.retentionHours ?? dropslotConfig.cardCodeRetentionHours
    const cutoff = sqlTime(now.minus({ hours }))
    const due: { id: number; public_id: string; card_vault: string }[] = await db
      .from('profiles')
      .whereNotNull('card_code_at')
      .where('card_code_at', '<=', cutoff)
      .where('keep_card_code', false)
      .whereNotExists((active) =>
        active
          .from('orders')
          .whereRaw('orders.profile_id = profiles.public_id')
          .whereNotIn('orders.status', FINAL_ORDER_STATUSES)
      )
      .select('id', 'public_id', 'card_vault')
      .orderBy('id', 'asc')
    const result: CardCodePurge = { due: due.length, purged: 0, profileIds: [] }
    if (options.dryRun) {
      result.profileIds = due.map((row) => row.public_id)
      return result
    }
    for (const row of due) {
      if (await this.deleteCode(row)) {
        result.purged++
        result.profileIds.push(row.public_id)
      }
    }
    if (result.purged > 0 || options.actor) {
      await auditLog.record({
        actor: options.actor ?? { label: 'card-retention' },
        action: 'profile.card_code_purge',
        subjectType: 'profile',
        meta: { profiles: result.purged, retentionHours: hours },
      })
    }
    return result
  }

  private async deleteCode(row: { id: number; card_vault: string }): Promise<boolean> {
    let card: VaultedCard
    try {
      card = cardVault.open<VaultedCard>(row.card_vault)
    } catch {
      logger.warn({ profileId: row.id }, 'profile card cannot be opened with the vault keys')
      return false
    }
    // Conditional on the row as read: a code entered meanwhile is kept.
    const updated = await db
      .from('profiles')
      .where('id', row.id)
      .where('card_vault', row.card_vault)
      .update({ card_vault: cardVault.seal({ ...card, code: '' }), card_code_at: null })
    return affectedRows(updated) === 1
  }
}

export const cardCodeRetention = new CardCodeRetention()
