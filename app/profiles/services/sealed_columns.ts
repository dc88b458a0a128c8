import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { sealedColumnReads, type SealedColumn } from '#core/services/vault_rotation'

/** What the vault seals in the profiles module's tables: each profile's card (`vault:rotate`). */
export const profileSealedColumns: SealedColumn[] = [
  {
    table: 'profiles',
    column: 'card_vault',
    ...sealedColumnReads(() => db.from('profiles'), 'card_vault'),
    async replace(id, current, next) {
      const updated = await db
        .from('profiles')
        .where('id', id)
        .where('card_vault', current)
        .update({ card_vault: next })
      return affectedRows(updated) === 1
    },
  },
]
