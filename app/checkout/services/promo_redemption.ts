import { AppError } from '#core/exceptions/app_error'
import type { DriverSession } from '#core/services/driver_session'
import { normalizePromoCode, PROMO_NOT_FOUND } from '#checkout/services/promo_service'
import { sqlTime } from '#core/helpers/sql_time'

const USE_PROMO = `UPDATE promo_codes SET uses = uses + 1 WHERE code = ? AND active = 1
  AND (starts_at IS NULL OR starts_at <= ?) AND (expires_at IS NULL OR expires_at > ?)
  AND (max_uses IS NULL OR uses < max_uses)`
const PROMO_PERCENT = 'SELECT percent FROM promo_codes WHERE code = ?'

/**
 * Uses a promo code once, inside the checkout's transaction: one conditional UPDATE checks the
 * active flag, the window and the usage limit and counts the use, so a limited code can never
 * be used more than `max_uses` times however many checkouts race for it. If the checkout then
 * fails, the transaction's rollback gives the use back.
 */
export async function redeemPromo(
  code: string,
  session: DriverSession
): Promise<{ code: string; percent: number }> {
  const normalized = normalizePromoCode(code)
  const invalid = () =>
    AppError.unprocessable(PROMO_NOT_FOUND, { promoCode: PROMO_NOT_FOUND }, 'promo_invalid')
  if (!normalized || normalized.length > 40) throw invalid()
  const now = sqlTime()
  const result = await session.run(USE_PROMO, [normalized, now, now])
  if (result.changes !== 1) throw invalid()
  const row = await session.first<{ percent: unknown }>(PROMO_PERCENT, [normalized])
  const percent = Math.min(100, Math.max(0, Math.round(Number(row?.percent ?? 0))))
  return { code: normalized, percent }
}
