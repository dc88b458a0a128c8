import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { sealedColumnReads, type SealedColumn } from '#core/services/vault_rotation'

/** What the vault seals in the accounts module's tables: each staff TOTP secret (`vault:rotate`). */
export const accountSealedColumns: SealedColumn[] = [
  {
    table: 'users',
    column: 'totp_secret_sealed',
    ...sealedColumnReads(() => db.from('users'), 'totp_secret_sealed'),
    async replace(id, current, next) {
      const updated = await db
        .from('users')
        .where('id', id)
        .where('totp_secret_sealed', current)
        .update({ totp_secret_sealed: next })
      return affectedRows(updated) === 1
    },
  },
]
