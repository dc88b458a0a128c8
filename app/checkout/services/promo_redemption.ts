import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows } from '#core/helpers/db_errors'
import { normalizePromoCode, PROMO_NOT_FOUND } from '#checkout/services/promo_service'
import { sqlTime } from '#core/helpers/sql_time'

/**
 * Uses a promo code once, inside the checkout's transaction: one conditional UPDATE checks the
 * active flag, the window and the usage limit and counts the use, so a limited code can never
 * be used more than `max_uses` times however many checkouts race for it. If the checkout then
 * fails, the transaction's rollback gives the use back.
 */
export async function redeemPromo(
  code: string,
  trx: TransactionClientContract
): Promise<{ code: string; percent: number }> {
  const normalized = normalizePromoCode(code)
  const invalid = () =>
    AppError.unprocessable(PROMO_NOT_FOUND, { promoCode: PROMO_NOT_FOUND }, 'promo_invalid')
  if (!normalized || normalized.length > 40) throw invalid()
  const now = sqlTime()
  const result = await trx
    .from('promo_codes')
    .where('code', normalized)
    .where('active', true)
    .where((query) => query.whereNull('starts_at').orWhere('starts_at', '<=', now))
    .where((query) => query.whereNull('expires_at').orWhere('expires_at', '>', now))
    .where((query) => query.whereNull('max_uses').orWhereRaw('uses < max_uses'))
    .update({ uses: db.knexRawQuery('uses + 1') })
  if (affectedRows(result) !== 1) throw invalid()
  const row = await trx.from('promo_codes').where('code', normalized).select('percent').first()
  const percent = Math.min(100, Math.max(0, Number(row?.percent ?? 0)))
  return { code: normalized, percent }
}
