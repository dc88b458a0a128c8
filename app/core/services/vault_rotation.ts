import db from '@adonisjs/lucid/services/db'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import { CardVault, cardVault } from '#core/services/card_vault'

export type SealedKey = number | string
export type SealedRow = { key: SealedKey; sealed: string }

/**
 * One column the vault seals, as the module that owns its table reads and writes it: the
 * module's port for `vault:rotate` and `vault:status` (core never writes another module's rows).
 */
export type SealedColumn = {
  table: string
  column: string
  /** Up to `limit` rows holding a sealed value, by key, after `after` (null: from the first). */
  page(after: SealedKey | null, limit: number): Promise<SealedRow[]>
  /** Writes `next` only where the row still holds `current`: true when it did. */
  replace(key: SealedKey, current: string, next: string): Promise<boolean>
  /** How many values each key id (as stored in the value) seals. */
  countByKeyId(): Promise<Map<string, number>>
}

/**
 * The reads of a sealed column, on a query of the owning module's table (`() => db.from(...)`);
 * the module adds its own conditional `replace`.
 */
export function sealedColumnReads(
  rows: () => DatabaseQueryBuilderContract,
  column: string,
  key = 'id'
): Pick<SealedColumn, 'page' | 'countByKeyId'> {
  return {
    async page(after, limit) {
      const query = rows()
        .whereNotNull(column)
        .orderBy(key, 'asc')
        .limit(limit)
        .select(`${key} as row_key`, `${column} as sealed_value`)
      if (after !== null) query.where(key, '>', after)
      const found = (await query) as { row_key: SealedKey; sealed_value: string }[]
      return found.map((row) => ({ key: row.row_key, sealed: row.sealed_value }))
    },
    async countByKeyId() {
      // The key id is what precedes the first ':' (SQLite and MariaDB both have SUBSTR/INSTR).
      const keyId = `SUBSTR(${column}, 1, INSTR(${column}, ':') - 1)`
      const found = (await rows()
        .whereNotNull(column)
        .select(db.raw(`${keyId} AS key_id`))
        .count('* as total')
        .groupByRaw(keyId)) as { key_id: string | null; total: number | string }[]
      const counts = new Map<string, number>()
      for (const row of found) {
        const id = row.key_id ?? ''
        counts.set(id, (counts.get(id) ?? 0) + Number(row.total))
      }
      return counts
    },
  }
}

export type ColumnStatus = {
  table: string
  column: string
  total: number
  /** Values under each key of VAULT_KEYS, in its order (0 included). */
  byKey: Record<string, number>
  /** Values under a key id that VAULT_KEYS no longer holds: they cannot be opened. */
  unknownKey: number
  unknownKeyIds: string[]
}

export type VaultStatus = {
  currentKey: string
  keys: string[]
  columns: ColumnStatus[]
  /** Values under a key of VAULT_KEYS other than the first. */
  underOlderKeys: number
  unknownKey: number
  /** Keys after the first that seal nothing any more: they can leave VAULT_KEYS. */
  removableKeys: string[]
}

export type ColumnRotation = {
  table: string
  column: string
  rotated: number
  current: number
  /** Changed by another writer between the read and the update: its value was kept. */
  changed: number
  unknownKey: number
  /** Under a key id we hold, yet it does not open (damaged, or a key id given other bytes). */
  unreadable: number
}

export type RotationReport = {
  currentKey: string
  batch: number
  columns: ColumnRotation[]
  unknownKeyIds: string[]
}

export type BatchDone = ColumnRotation & { batchNumber: number; rows: number }

/**
 * Moves every sealed value to the vault's current key, and counts what each key still seals.
 * A value is read, opened and sealed again with the first key of VAULT_KEYS, then written only
 * if the row still holds what was read; rows already under the current key are skipped, so a run
 * stopped at any line is simply run again. Nothing here ever logs or returns a value.
 */
export class VaultRotation {
  constructor(private vault: CardVault = cardVault) {}

  async status(columns: SealedColumn[]): Promise<VaultStatus> {
    const keys = this.vault.keyIds
    const result: ColumnStatus[] = []
    for (const sealed of columns) {
      const counts = await sealed.countByKeyId()
      const byKey = Object.fromEntries(keys.map((id) => [id, counts.get(id) ?? 0]))
      const unknownKeyIds = [...counts.keys()].filter((id) => !keys.includes(id)).sort()
      result.push({
        table: sealed.table,
        column: sealed.column,
        total: [...counts.values()].reduce((sum, count) => sum + count, 0),
        byKey,
        unknownKey: unknownKeyIds.reduce((sum, id) => sum + counts.get(id)!, 0),
        unknownKeyIds,
      })
    }
    const under = (id: string) => result.reduce((sum, column) => sum + column.byKey[id], 0)
    return {
      currentKey: keys[0],
      keys,
      columns: result,
      underOlderKeys: keys.slice(1).reduce((sum, id) => sum + under(id), 0),
      unknownKey: result.reduce((sum, column) => sum + column.unknownKey, 0),
      removableKeys: keys.slice(1).filter((id) => under(id) === 0),
    }
  }

  async rotate(
    columns: SealedColumn[],
    options: { batch: number; onBatch?: (done: BatchDone) => void }
  ): Promise<RotationReport> {
    const report: RotationReport = {
      currentKey: this.vault.keyIds[0],
      batch: options.batch,
      columns: [],
      unknownKeyIds: [],
    }
    const unknownIds = new Set<string>()
    for (const sealed of columns) {
      const counts: ColumnRotation = {
        table: sealed.table,
        column: sealed.column,
        rotated: 0,
        current: 0,
        changed: 0,
        unknownKey: 0,
        unreadable: 0,
      }
      report.columns.push(counts)
      let after: SealedKey | null = null
      for (let batchNumber = 1; ; batchNumber++) {
        const rows = await sealed.page(after, options.batch)
        if (rows.length === 0) break
        for (const row of rows) await this.rotateOne(sealed, row, counts, unknownIds)
        after = rows[rows.length - 1].key
        options.onBatch?.({ ...counts, batchNumber, rows: rows.length })
        if (rows.length < options.batch) break
      }
    }
    report.unknownKeyIds = [...unknownIds].sort()
    return report
  }

  private async rotateOne(
    sealed: SealedColumn,
    row: SealedRow,
    counts: ColumnRotation,
    unknownIds: Set<string>
  ) {
    if (!this.vault.needsRotation(row.sealed)) {
      counts.current++
      return
    }
    const keyId = CardVault.keyIdOf(row.sealed)
    if (!this.vault.keyIds.includes(keyId)) {
      counts.unknownKey++
      unknownIds.add(keyId)
      return
    }
    let next: string
    try {
      next = this.vault.reseal(row.sealed)
    } catch {
      counts.unreadable++
      return
    }
    if (await sealed.replace(row.key, row.sealed, next)) counts.rotated++
    else counts.changed++
  }
}

export const vaultRotation = new VaultRotation()
