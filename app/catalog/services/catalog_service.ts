import Product, { splitList } from '#catalog/models/product'
import { AppError } from '#core/exceptions/app_error'
import { booleanColumn, jsonColumn } from '#core/helpers/columns'
import { sqlTime } from '#core/helpers/sql_time'
import type { DriverSession } from '#core/services/driver_session'

/** What a checkout reads of a product, as plain data. */
export type CheckoutProduct = Pick<
  Product,
  'id' | 'title' | 'priceCents' | 'sizeType' | 'sizes' | 'totalStock' | 'stockTaken'
> & { styleList: string[]; isReleased: boolean }

type CheckoutProductRow = {
  id: number
  title: string
  price_cents: number
  size_type: Product['sizeType']
  styles: string
  sizes: unknown
  avail: unknown
  total_stock: number
  stock_taken: number
  released: unknown
}

const CHECKOUT_PRODUCT = `SELECT id, title, price_cents, size_type, styles, sizes, avail, total_stock,
  stock_taken, (release_at IS NOT NULL AND release_at <= ?) AS released FROM products WHERE id = ?`

export const SHOE_SIZES = Array.from({ length: 21 }, (_, index) => String(4 + index / 2))
export const CLOTHING_SIZES = ['XS', 'S', 'M', 'L']
export const ONE_SIZE = ['OS']

export function sizesFor(sizeType: string): string[] {
  if (sizeType === 'OS') return ONE_SIZE
  if (sizeType === 'clothing') return CLOTHING_SIZES
  return SHOE_SIZES
}

export class CatalogService {
  /** Products customers can see: available ones, the next release first. */
  async listAvailable() {
    return Product.query().where('avail', true).orderBy('release_at', 'desc').orderBy('id', 'desc')
  }

  async findAvailable(id: number) {
    const product = Number.isSafeInteger(id) && id > 0 ? await Product.find(id) : null
    if (!product || !product.avail) throw productNotFound()
    return product
  }

  /** The same rule as `findAvailable`, read on the checkout's session without a model. */
  async findAvailableOn(session: DriverSession, id: number): Promise<CheckoutProduct> {
    const row =
      Number.isSafeInteger(id) && id > 0
        ? await session.first<CheckoutProductRow>(CHECKOUT_PRODUCT, [sqlTime(), id])
        : null
    if (!row || !booleanColumn.consume(row.avail)) throw productNotFound()
    return {
      id: Number(row.id),
      title: row.title,
      priceCents: Number(row.price_cents),
      sizeType: row.size_type,
      sizes: jsonColumn.consume(row.sizes) as string[],
      styleList: splitList(row.styles),
      totalStock: Number(row.total_stock),
      stockTaken: Number(row.stock_taken),
      isReleased: booleanColumn.consume(row.released),
    }
  }
}

function productNotFound() {
  return AppError.notFound('Product not found.', 'product_not_found')
}

export const catalogService = new CatalogService()
