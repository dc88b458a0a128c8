import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Product, { type SizeType } from '#catalog/models/product'
import { SIZES_BY_TYPE, type ReleaseMode } from '#shared/vocabulary'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import { sqlTime } from '#core/helpers/sql_time'
import {
  productRetailers,
  retailersAfter,
  type RetailerInput,
} from '#catalog/services/product_retailers'

/*
| Admin-side writes of the catalogue: create, edit and delete products with the rules a
| product must keep (sizes that fit the size type, styles, brand tags, stock that never goes
| below the slots already taken).
*/

export function allowedSizes(sizeType: SizeType): string[] {
  return SIZES_BY_TYPE[sizeType] ?? SIZES_BY_TYPE.shoe
}

export type ProductFields = {
  title: string
  slug?: string | null
  image?: string | null
  description?: string | null
  priceCents: number
  sizeType?: SizeType
  sizes?: string[] | string | null
  styles?: string[] | string | null
  tags?: string[] | string | null
  retailer?: string | null
  /** Where it releases, in order; when sent, `retailer` is its first. */
  retailers?: RetailerInput[]
  avail?: boolean
  totalStock: number
  stockTaken?: number
  releaseAt?: DateTime | null
  /** Restocks are tried until then after the drop: after `releaseAt`, at most 7 days after. */
  restockUntil?: DateTime | null
  releaseMode?: ReleaseMode
  entryOpensAt?: DateTime | null
  entryClosesAt?: DateTime | null
  /** A waiting room: the sale opens at `queueOpensAt`, the line forms `queueMinutes` before. */
  queueOpensAt?: DateTime | null
  queueMinutes?: number | null
  queueRatePerMinute?: number | null
}

/** Stock taken is left out on purpose: after creation only orders move it. */
export type ProductChanges = Partial<Omit<ProductFields, 'stockTaken'>>

function splitList(value: string[] | string | null | undefined): string[] {
  const list = Array.isArray(value) ? value : (value ?? '').split(',')
  return list.map((item) => String(item).trim()).filter(Boolean)
}

function normalizeShoeSize(size: string): string {
  return /^\d+(\.\d+)?$/.test(size) ? String(Number(size)) : size
}

/** Sizes must all exist for the size type; none given means every size of the type. */
export function normalizeSizes(sizeType: SizeType, raw: ProductFields['sizes']): string[] {
  const allowed = allowedSizes(sizeType)
  if (raw === undefined || raw === null) return [...allowed]
  const given = splitList(raw).map((size) =>
    sizeType === 'shoe' ? normalizeShoeSize(size) : size.toUpperCase()
  )
  if (given.length === 0) {
    throw AppError.unprocessable('Pick at least one size.', { sizes: 'Pick at least one size.' })
  }
  const wrong = given.filter((size) => !allowed.includes(size))
  if (wrong.length > 0) {
    const hint =
      sizeType === 'shoe'
        ? 'shoe sizes run from 4 to 14 in half steps'
        : sizeType === 'clothing'
          ? 'clothing sizes are XS, S, M, L and XL'
          : 'a one-size product has only OS'
    const message = `${wrong.join(', ')} ${wrong.length === 1 ? 'is not a size' : 'are not sizes'} for this product: ${hint}.`
    throw AppError.unprocessable(message, { sizes: message })
  }
  return allowed.filter((size) => given.includes(size))
}

export function normalizeStyles(raw: ProductFields['styles']): string {
  const styles = [...new Set(splitList(raw))]
  if (styles.length === 0) return 'OS'
  const tooLong = styles.find((style) => style.length > 64)
  if (tooLong) {
    const message = 'Each style must be at most 64 characters.'
    throw AppError.unprocessable(message, { styles: message })
  }
  const joined = styles.join(',')
  if (joined.length > 500) {
    const message = 'Too many styles: keep the list under 500 characters.'
    throw AppError.unprocessable(message, { styles: message })
  }
  return joined
}

export function normalizeTags(raw: ProductFields['tags']): string {
  const tags = [...new Set(splitList(raw).map((tag) => tag.toLowerCase()))]
  const wrong = tags.find((tag) => !/^[a-z0-9][a-z0-9 &.'-]{0,39}$/.test(tag))
  if (wrong) {
    const message = `"${wrong}" is not a valid brand tag (letters, digits, spaces and dashes).`
    throw AppError.unprocessable(message, { tags: message })
  }
  const joined = tags.join(',')
  if (joined.length > 200) {
    const message = 'Too many tags: keep the list under 200 characters.'
    throw AppError.unprocessable(message, { tags: message })
  }
  return joined
}

export function slugify(value: string): string {
  const slug = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
  return slug || 'product'
}

/** A draw's entry window: both times, the close after the opening. */
function checkEntryWindow(
  mode: ReleaseMode,
  opensAt: DateTime | null | undefined,
  closesAt: DateTime | null | undefined
) {
  if (mode !== 'draw') return
  if (!opensAt || !closesAt) {
    const message = 'A draw needs the times its entries open and close.'
    throw AppError.unprocessable(message, { [opensAt ? 'entryClosesAt' : 'entryOpensAt']: message })
  }
  if (closesAt <= opensAt) {
    const message = 'Entries must close after they open.'
    throw AppError.unprocessable(message, { entryClosesAt: message })
  }
}

export const MAX_RESTOCK_DAYS = 7

/** A restock window ends after the release time, at most `MAX_RESTOCK_DAYS` after it. */
function checkRestockWindow(
  releaseAt: DateTime | null | undefined,
  restockUntil: DateTime | null | undefined
) {
  if (!restockUntil) return
  const message = !releaseAt
    ? 'A restock window needs a release time.'
    : restockUntil <= releaseAt
      ? 'Restocks must be tried until a time after the release time.'
      : restockUntil > releaseAt.plus({ days: MAX_RESTOCK_DAYS })
        ? `Restocks can be tried for at most ${MAX_RESTOCK_DAYS} days after the release time.`
        : null
  if (message) throw AppError.unprocessable(message, { restockUntil: message })
}

/** A waiting room needs its opening time and length together (and is for first-come drops). */
function queueFields(
  fields: Pick<
    ProductFields,
    'queueOpensAt' | 'queueMinutes' | 'queueRatePerMinute' | 'releaseMode'
  >
) {
  const wanted = Boolean(fields.queueMinutes) || Boolean(fields.queueOpensAt)
  if (!wanted) return { queueOpensAt: null, queueMinutes: null, queueRatePerMinute: null }
  if (!fields.queueOpensAt || !fields.queueMinutes) {
    const message =
      'A waiting room needs the time the sale opens and how many minutes before it the line forms.'
    throw AppError.unprocessable(message, {
      [fields.queueOpensAt ? 'queueMinutes' : 'queueOpensAt']: message,
    })
  }
  if (fields.releaseMode === 'draw') {
    const message = 'A draw has no waiting room: its entries are already fair.'
    throw AppError.unprocessable(message, { queueMinutes: message })
  }
  return {
    queueOpensAt: fields.queueOpensAt,
    queueMinutes: fields.queueMinutes,
    queueRatePerMinute: fields.queueRatePerMinute ?? 60,
  }
}

/**
 * A draw whose entries have opened is committed (its slots, entry window and mode are in the
 * commitment every entrant was sent, `#draws`): none of them may change any more.
 */
export const DRAW_COMMITTED =
  "This draw's entries have opened: its slots, entry window and release mode are committed and can no longer change."

export function isCommittedDraw(
  product: { releaseMode: ReleaseMode; entryOpensAt: DateTime | null },
  now = DateTime.now()
) {
  return (
    product.releaseMode === 'draw' && product.entryOpensAt !== null && product.entryOpensAt <= now
  )
}

function stockError(field: 'totalStock' | 'stockTaken', taken: number): AppError {
  const message =
    field === 'totalStock'
      ? `Total stock cannot be below the ${taken} slot${taken === 1 ? '' : 's'} already taken.`
      : 'Slots taken cannot be more than the total stock.'
  return AppError.unprocessable(message, { [field]: message })
}

function isForeignKeyViolation(error: unknown): boolean {
  const candidate = error as { code?: string; errno?: number } | null
  return (
    candidate?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    candidate?.code === 'ER_ROW_IS_REFERENCED_2' ||
    candidate?.errno === 1451
  )
}

type ProductRow = Record<string, unknown>

/** The columns an edit sets for the product's content, release time, restocks and sizes. */
function contentColumns(product: Product, changes: ProductChanges): ProductRow {
  const row: ProductRow = {}
  if (changes.title !== undefined) row.title = changes.title
  if (changes.image !== undefined) row.image = changes.image ?? ''
  if (changes.description !== undefined) row.description = changes.description
  if (changes.priceCents !== undefined) row.price_cents = changes.priceCents
  if (changes.avail !== undefined) row.avail = changes.avail
  if (changes.releaseAt !== undefined) {
    row.release_at = changes.releaseAt ? sqlTime(changes.releaseAt.toLocal()) : null
  }
  if (changes.releaseAt !== undefined || changes.restockUntil !== undefined) {
    const restockUntil =
      changes.restockUntil === undefined ? product.restockUntil : changes.restockUntil
    checkRestockWindow(
      changes.releaseAt === undefined ? product.releaseAt : changes.releaseAt,
      restockUntil
    )
    if (changes.restockUntil !== undefined) {
      row.restock_until = restockUntil ? sqlTime(restockUntil.toLocal()) : null
    }
  }
  if (changes.sizeType !== undefined || changes.sizes !== undefined) {
    const sizeType = changes.sizeType ?? product.sizeType
    row.size_type = sizeType
    // Changing the size type without new sizes resets the sizes to the whole new range.
    const sizes =
      changes.sizes === undefined && changes.sizeType !== product.sizeType
        ? undefined
        : (changes.sizes ?? product.sizes)
    row.sizes = JSON.stringify(normalizeSizes(sizeType, sizes))
  }
  if (changes.styles !== undefined) row.styles = normalizeStyles(changes.styles)
  if (changes.tags !== undefined) row.tags = normalizeTags(changes.tags)
  return row
}

/** The waiting room's columns when an edit sends any of its fields; none otherwise. */
function queueColumns(product: Product, changes: ProductChanges): ProductRow {
  if (
    changes.queueOpensAt === undefined &&
    changes.queueMinutes === undefined &&
    changes.queueRatePerMinute === undefined
  ) {
    return {}
  }
  const queue = queueFields({
    releaseMode: changes.releaseMode ?? product.releaseMode,
    queueOpensAt: changes.queueOpensAt === undefined ? product.queueOpensAt : changes.queueOpensAt,
    queueMinutes: changes.queueMinutes === undefined ? product.queueMinutes : changes.queueMinutes,
    queueRatePerMinute:
      changes.queueRatePerMinute === undefined
        ? product.queueRatePerMinute
        : changes.queueRatePerMinute,
  })
  return {
    queue_opens_at: queue.queueOpensAt ? sqlTime(queue.queueOpensAt.toLocal()) : null,
    queue_minutes: queue.queueMinutes,
    queue_rate_per_minute: queue.queueRatePerMinute,
  }
}

function sameTime(sent: DateTime | null | undefined, stored: DateTime | null) {
  return sent === undefined || (sent?.toMillis() ?? null) === (stored?.toMillis() ?? null)
}

/** Whether an edit changes the release mode or the draw's entry window. */
function drawSettingsChanged(product: Product, changes: ProductChanges): boolean {
  return (
    (changes.releaseMode !== undefined && changes.releaseMode !== product.releaseMode) ||
    !sameTime(changes.entryOpensAt, product.entryOpensAt) ||
    !sameTime(changes.entryClosesAt, product.entryClosesAt)
  )
}

/** The release mode and entry window after an edit, checked together. */
function drawColumns(product: Product, changes: ProductChanges): ProductRow {
  const mode = changes.releaseMode ?? product.releaseMode
  const opensAt = changes.entryOpensAt === undefined ? product.entryOpensAt : changes.entryOpensAt
  const closesAt =
    changes.entryClosesAt === undefined ? product.entryClosesAt : changes.entryClosesAt
  checkEntryWindow(mode, opensAt, closesAt)
  return {
    release_mode: mode,
    entry_opens_at: opensAt ? sqlTime(opensAt.toLocal()) : null,
    entry_closes_at: closesAt ? sqlTime(closesAt.toLocal()) : null,
  }
}

export class ProductAdminService {
  private drawFields(
    fields: Pick<ProductFields, 'releaseMode' | 'entryOpensAt' | 'entryClosesAt'>
  ) {
    const releaseMode = fields.releaseMode ?? 'first-come'
    checkEntryWindow(releaseMode, fields.entryOpensAt, fields.entryClosesAt)
    if (releaseMode !== 'draw') return { releaseMode }
    return {
      releaseMode,
      entryOpensAt: fields.entryOpensAt ?? null,
      entryClosesAt: fields.entryClosesAt ?? null,
    }
  }

  async find(id: number): Promise<Product> {
    const product = Number.isSafeInteger(id) && id > 0 ? await Product.find(id) : null
    if (!product) throw AppError.notFound('Product not found.', 'product_not_found')
    return product
  }

  async create(fields: ProductFields): Promise<Product> {
    const sizeType = fields.sizeType ?? 'shoe'
    const stockTaken = fields.stockTaken ?? 0
    if (stockTaken > fields.totalStock) throw stockError('stockTaken', stockTaken)
    const retailers = retailersAfter([], fields) ?? []
    checkRestockWindow(fields.releaseAt, fields.restockUntil)
    const values = {
      title: fields.title,
      image: fields.image ?? '',
      description: fields.description ?? null,
      priceCents: fields.priceCents,
      sizeType,
      sizes: normalizeSizes(sizeType, fields.sizes),
      styles: normalizeStyles(fields.styles),
      tags: normalizeTags(fields.tags),
      retailer: retailers[0]?.retailer ?? null,
      avail: fields.avail ?? true,
      totalStock: fields.totalStock,
      stockTaken,
      releaseAt: fields.releaseAt ?? null,
      restockUntil: fields.restockUntil ?? null,
      ...this.drawFields(fields),
      ...queueFields(fields),
    }
    const explicitSlug = fields.slug ? slugify(fields.slug) : null
    const base = explicitSlug ?? slugify(fields.title)
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = attempt === 0 ? base : `${base}-${Math.random().toString(36).slice(2, 7)}`
      try {
        return await db.transaction(async (trx) => {
          const product = await Product.create({ ...values, slug }, { client: trx })
          await productRetailers.replace(product.id, retailers, trx)
          return product
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        if (explicitSlug) {
          const message = 'Another product already uses this slug.'
          throw AppError.unprocessable(message, { slug: message })
        }
      }
    }
    throw AppError.conflict('Could not find a free slug for this product.', 'slug_taken')
  }

  /**
   * One UPDATE statement, guarded by `stock_taken <= new total`: a checkout taking the last
   * slot at the same moment can never leave total stock below what is taken.
   */
  async update(id: number, changes: ProductChanges): Promise<Product> {
    const product = await this.find(id)
    const row = contentColumns(product, changes)
    const retailers =
      changes.retailers !== undefined || changes.retailer !== undefined
        ? retailersAfter(await productRetailers.listOf(product), changes)
        : undefined
    if (retailers) row.retailer = retailers[0]?.retailer ?? null
    if (changes.slug !== undefined && changes.slug !== null) row.slug = slugify(changes.slug)
    if (changes.totalStock !== undefined) row.total_stock = changes.totalStock
    const drawChanged = drawSettingsChanged(product, changes)
    Object.assign(row, queueColumns(product, changes))
    const stockChanged =
      changes.totalStock !== undefined && changes.totalStock !== product.totalStock
    if (isCommittedDraw(product) && (drawChanged || stockChanged)) {
      throw AppError.conflict(DRAW_COMMITTED, 'draw_committed')
    }
    if (drawChanged) Object.assign(row, drawColumns(product, changes))
    if (Object.keys(row).length === 0) return product

    row.updated_at = sqlTime()
    const guarded = drawChanged || changes.totalStock !== undefined
    const result = await this.writeUpdate(product.id, row, {
      retailers,
      totalStock: changes.totalStock,
      guarded,
    })
    soldOutMemory.forget(product.id)
    const fresh = await this.find(product.id)
    if (affectedRows(result) === 0 && guarded) {
      if (isCommittedDraw(fresh)) throw AppError.conflict(DRAW_COMMITTED, 'draw_committed')
      throw stockError('totalStock', fresh.stockTaken)
    }
    return fresh
  }

  /**
   * The row and its retailers in one transaction: an edit is written whole or not at all. A
   * guarded edit touches no row when stock already taken or a draw's opened entries forbid it.
   */
  private async writeUpdate(
    productId: number,
    row: ProductRow,
    options: {
      retailers: ReturnType<typeof retailersAfter>
      totalStock: number | undefined
      guarded: boolean
    }
  ) {
    const { retailers, totalStock, guarded } = options
    return db.transaction(async (trx) => {
      const query = Product.query({ client: trx }).where('id', productId)
      if (totalStock !== undefined) query.where('stock_taken', '<=', totalStock)
      if (guarded) {
        // Decided by the statement too: entries that opened a moment ago commit the draw.
        query.where((guard) =>
          guard
            .whereNot('release_mode', 'draw')
            .orWhereNull('entry_opens_at')
            .orWhere('entry_opens_at', '>', sqlTime())
        )
      }
      let updated: unknown
      try {
        updated = await query.update(row)
      } catch (error) {
        if (isUniqueViolation(error)) {
          const message = 'Another product already uses this slug.'
          throw AppError.unprocessable(message, { slug: message })
        }
        throw error
      }
      if (retailers && !(guarded && affectedRows(updated) === 0)) {
        await productRetailers.replace(productId, retailers, trx)
      }
      return updated
    })
  }

  /**
   * Deletes a product that no order refers to. The database's foreign key decides under
   * concurrency: an order placed a moment ago still blocks the delete.
   */
  async delete(id: number): Promise<Product> {
    const product = await this.find(id)
    try {
      await Product.query().where('id', product.id).delete()
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw AppError.conflict(
          'This product has orders, so it cannot be deleted. Mark it unavailable to hide it from the shop.',
          'product_has_orders'
        )
      }
      throw error
    }
    return product
  }
}

export const productAdminService = new ProductAdminService()
