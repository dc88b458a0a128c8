import { splitList, type ProductColumns } from '#catalog/services/product_queries'
import type { Address, ProfileRecord } from '#profiles/services/profile_queries'
import { booleanColumn, jsonColumn } from '#core/helpers/columns'
import { sqlTime } from '#core/helpers/sql_time'
import type { DriverSession } from '#core/services/driver_session'

/** What a checkout reads of a product, as plain data. */
export type CheckoutProduct = Pick<
  ProductColumns,
  'id' | 'title' | 'priceCents' | 'sizeType' | 'sizes' | 'totalStock' | 'stockTaken'
> & {
  avail: boolean
  styleList: string[]
  isReleased: boolean
  /** A draw product: entries, not purchases (see #draws). */
  isDraw: boolean
  entriesOpen: boolean
  entriesClosed: boolean
  /** The entry window as the driver gives it (a Date on MariaDB, text on SQLite). */
  entryOpensAtRaw: unknown
  entryClosesAtRaw: unknown
  entryClosesAt: string | null
  /** A drop with a waiting room: whether its sale has opened; null without one. */
  queueOpen: boolean | null
}

/** What a checkout reads of the customer's profile, as plain data. */
export type CheckoutProfile = Pick<
  ProfileRecord,
  'publicId' | 'profileName' | 'email' | 'phone' | 'shipping' | 'billing' | 'cardVault'
>

type Row = {
  id: number
  title: string
  price_cents: number
  size_type: ProductColumns['sizeType']
  styles: string
  sizes: unknown
  avail: unknown
  total_stock: number
  stock_taken: number
  released: unknown
  release_mode: string
  entries_open: unknown
  entries_closed: unknown
  entry_closes_at: unknown
  entry_opens_at: unknown
  queue_open: unknown
  profile_public_id: string | null
  profile_name: string
  profile_email: string
  profile_phone: string
  profile_shipping: unknown
  profile_billing: unknown
  profile_card_vault: string
}

// One statement for both: every checkout of a drop reads them, and a round trip to the database
// is a good part of a checkout's CPU (docs/performance.md). The profile counts only if it is the
// customer's own.
const PRODUCT_AND_PROFILE = `SELECT p.id, p.title, p.price_cents, p.size_type, p.styles, p.sizes,
  p.avail, p.total_stock, p.stock_taken, (p.release_at IS NOT NULL AND p.release_at <= ?) AS released,
  p.release_mode, (p.entry_opens_at IS NOT NULL AND p.entry_opens_at <= ?) AS entries_open,
  (p.entry_closes_at IS NOT NULL AND p.entry_closes_at <= ?) AS entries_closed, p.entry_closes_at,
  p.entry_opens_at,
  (CASE WHEN p.queue_minutes IS NULL OR p.queue_opens_at IS NULL THEN NULL
    WHEN p.queue_opens_at <= ? THEN 1 ELSE 0 END) AS queue_open,
  f.public_id AS profile_public_id, f.profile_name, f.email AS profile_email,
  f.phone AS profile_phone, f.shipping AS profile_shipping, f.billing AS profile_billing,
  f.card_vault AS profile_card_vault
  FROM products p LEFT JOIN profiles f ON f.public_id = ? AND f.user_id = ? WHERE p.id = ?`

/**
 * The product (null when there is none) and the customer's profile by its public id (null when
 * there is none or it is someone else's), read together on the checkout's session.
 */
export async function readProductAndProfile(
  session: DriverSession,
  productId: number,
  userId: number,
  profileId: unknown
): Promise<{ product: CheckoutProduct | null; profile: CheckoutProfile | null }> {
  if (!Number.isSafeInteger(productId) || productId <= 0) return { product: null, profile: null }
  const publicId = typeof profileId === 'string' && profileId.length <= 64 ? profileId : null
  const now = sqlTime()
  const row = await session.first<Row>(PRODUCT_AND_PROFILE, [
    now,
    now,
    now,
    now,
    publicId,
    userId,
    productId,
  ])
  if (!row) return { product: null, profile: null }
  const product: CheckoutProduct = {
    id: Number(row.id),
    title: row.title,
    priceCents: Number(row.price_cents),
    sizeType: row.size_type,
    sizes: jsonColumn.consume(row.sizes) as string[],
    avail: booleanColumn.consume(row.avail),
    styleList: splitList(row.styles),
    totalStock: Number(row.total_stock),
    stockTaken: Number(row.stock_taken),
    isReleased: booleanColumn.consume(row.released),
    isDraw: row.release_mode === 'draw',
    entriesOpen: booleanColumn.consume(row.entries_open),
    entriesClosed: booleanColumn.consume(row.entries_closed),
    entryOpensAtRaw: row.entry_opens_at,
    entryClosesAtRaw: row.entry_closes_at,
    entryClosesAt: sqlText(row.entry_closes_at),
    queueOpen:
      row.queue_open === null || row.queue_open === undefined
        ? null
        : booleanColumn.consume(row.queue_open),
  }
  const profile: CheckoutProfile | null =
    row.profile_public_id === null
      ? null
      : {
          publicId: row.profile_public_id,
          profileName: row.profile_name,
          email: row.profile_email,
          phone: row.profile_phone,
          shipping: jsonColumn.consume(row.profile_shipping) as Address,
          billing: jsonColumn.consume(row.profile_billing) as Address,
          cardVault: row.profile_card_vault,
        }
  return { product, profile }
}

/** A DATETIME as the driver gives it (a Date on MariaDB, text on SQLite), as UTC text. */
function sqlText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return `${value.toISOString().slice(0, 19).replace('T', ' ')} UTC`
  return `${String(value).slice(0, 19)} UTC`
}
