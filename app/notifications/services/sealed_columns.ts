import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { sealedColumnReads, type SealedColumn } from '#core/services/vault_rotation'

/**
 * What the vault seals in the notifications module's tables: each customer's Discord webhook
 * (`vault:rotate`). Push subscriptions are stored as the browser gives them, not sealed.
 */
export const notificationSealedColumns: SealedColumn[] = [
  {
    table: 'ping_settings',
    column: 'discord_webhook_vault',
    ...sealedColumnReads(() => db.from('ping_settings'), 'discord_webhook_vault', 'user_id'),
    async replace(userId, current, next) {
      const updated = await db
        .from('ping_settings')
        .where('user_id', userId)
        .where('discord_webhook_vault', current)
        .update({ discord_webhook_vault: next })
      return affectedRows(updated) === 1
    },
  },
]
