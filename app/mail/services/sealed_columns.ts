import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { sealedColumnReads, type SealedColumn } from '#core/services/vault_rotation'

/** What the vault seals in the mail module's tables: each kept raw message (`vault:rotate`). */
export const mailSealedColumns: SealedColumn[] = [
  {
    table: 'mail_messages',
    column: 'raw_sealed',
    ...sealedColumnReads(() => db.from('mail_messages'), 'raw_sealed'),
    async replace(id, current, next) {
      // A message purged meanwhile (raw_sealed NULL) no longer matches: nothing comes back.
      const updated = await db
        .from('mail_messages')
        .where('id', id)
        .where('raw_sealed', current)
        .update({ raw_sealed: next })
      return affectedRows(updated) === 1
    },
  },
]
