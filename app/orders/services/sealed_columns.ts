import db from '@adonisjs/lucid/services/db'
import { affectedRows } from '#core/helpers/db_errors'
import { sealedColumnReads, type SealedColumn } from '#core/services/vault_rotation'

/** What the vault seals in the orders module's tables: each order's ACO snapshot (`vault:rotate`). */
export const orderSealedColumns: SealedColumn[] = [
  {
    table: 'orders',
    column: 'aco_vault',
    ...sealedColumnReads(() => db.from('orders'), 'aco_vault'),
    async replace(id, current, next) {
      const updated = await db
        .from('orders')
        .where('id', id)
        .where('aco_vault', current)
        .update({ aco_vault: next })
      return affectedRows(updated) === 1
    },
  },
]
