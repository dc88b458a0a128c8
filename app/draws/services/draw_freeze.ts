import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { clock } from '#core/services/clock'
import { cardKey } from '#draws/services/draw_keys'
import { compareIds, roundTime } from '#shared/draw'

type Client = TransactionClientContract | typeof db

/**
 * A card check that stands at the close: placed, or still being placed (queued, placing, or
 * waiting for the cardholder's authentication). Its later answer cannot take the entry out of
 * the ranking any more; a winner whose check then fails is replaced by the next alternate.
 */
const STANDING_CHECKS = ['placed', 'queued', 'placing', 'requires_action']

/** Entries of the list frozen at the close (those left out are `skipped` from then on). */
export function frozenEntries(client: Client, productId: number) {
  return client
    .from('draw_entries')
    .where('product_id', productId)
    .where((query) => query.whereNull('result').orWhereNot('result', 'skipped'))
}

/**
 * Decides, in the transaction that closes the draw, which entries are frozen: those whose order
 * is still entered with its card check standing, each on the card its placed check was made on
 * (an entry whose check went to another card takes that card's place, and is left out if that
 * card is already in the draw). The others are `skipped`: they take no part. Returns the frozen
 * ids, ascending, whose Merkle root is published.
 *
 * A close that comes only once the committed round is due (no sweep ran in between) may come
 * after the randomness is public: then nothing is left out, every entry is frozen, and a winner
 * whose check does not stand is replaced like any winner who drops out.
 */
export async function freezeEntries(
  record: { productId: number; round: number | null },
  trx: TransactionClientContract
): Promise<string[]> {
  const query = trx
    .from('draw_entries')
    .join('orders', 'orders.id', 'draw_entries.order_id')
    .where('draw_entries.product_id', record.productId)
    .whereNull('draw_entries.result')
    .orderBy('draw_entries.id', 'asc')
    .select(
      'draw_entries.id',
      'draw_entries.public_id',
      'draw_entries.card_fingerprint',
      'orders.status',
      'orders.hold_status',
      'orders.hold_card_fingerprint'
    )
  if (trx.dialect.name === 'mysql') query.forUpdate()
  const rows = await query
  const late = record.round !== null && clock.nowMs() >= roundTime(record.round) * 1000
  const frozen: string[] = []
  const left: number[] = []
  for (const row of rows) {
    if (!late && !(await stands(row, trx))) {
      left.push(Number(row.id))
      continue
    }
    frozen.push(String(row.public_id))
  }
  if (left.length) {
    await trx
      .from('draw_entries')
      .whereIn('id', left)
      .update({ result: 'skipped', rank: null, won: false })
  }
  return frozen.sort(compareIds)
}

async function stands(row: Record<string, any>, trx: TransactionClientContract) {
  if (row.status !== 'entered' || !STANDING_CHECKS.includes(row.hold_status)) return false
  if (row.hold_status !== 'placed' || !row.hold_card_fingerprint) return true
  const checked = cardKey(row.hold_card_fingerprint)
  if (checked === row.card_fingerprint) return true
  try {
    await trx.from('draw_entries').where('id', row.id).update({ card_fingerprint: checked })
    return true
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    return false
  }
}
