import Product from '#catalog/models/product'
import { productAdminService, slugify } from '#catalog/services/product_admin_service'
import { productInput } from '#catalog/services/product_input'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import {
  ImportFileError,
  messageOf,
  pick,
  readRows,
  type RowError,
} from '#core/services/import_rows'

export { ImportFileError, readRows }

function productPayload(row: Record<string, unknown>) {
  const numeric = (value: unknown) =>
    typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value
  const bool = (value: unknown) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value
  // A CSV cell holds the list as JSON text; what does not parse is left for the validator to refuse.
  const list = (value: unknown) => {
    if (typeof value !== 'string') return value
    try {
      return JSON.parse(value) as unknown
    } catch {
      return value
    }
  }
  const payload: Record<string, unknown> = {
    productTitle: pick(row, 'productTitle', 'title'),
    slug: pick(row, 'slug'),
    productImage: pick(row, 'productImage', 'image'),
    description: pick(row, 'description'),
    price: numeric(pick(row, 'price')),
    sizeType: pick(row, 'sizeType'),
    sizes: pick(row, 'sizes'),
    styles: pick(row, 'styles'),
    tags: pick(row, 'tags'),
    retailer: pick(row, 'retailer'),
    retailers: list(pick(row, 'retailers')),
    avail: bool(pick(row, 'avail')),
    totalStock: numeric(pick(row, 'totalStock', 'stock')),
    stockTaken: numeric(pick(row, 'stockTaken')),
    releaseAt: pick(row, 'releaseAt', 'releaseDate'),
    restockUntil: pick(row, 'restockUntil'),
    releaseMode: pick(row, 'releaseMode', 'mode'),
    entryOpensAt: pick(row, 'entryOpensAt'),
    entryClosesAt: pick(row, 'entryClosesAt'),
    queueOpensAt: pick(row, 'queueOpensAt'),
    queueMinutes: numeric(pick(row, 'queueMinutes')),
    queueRatePerMinute: numeric(pick(row, 'queueRatePerMinute')),
  }
  return Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined))
}

/**
 * Imports products from a JSON array or CSV (the admin API's field names), upserting by slug
 * (given, or made from the title). Each row is validated like the admin console's form; a bad
 * row is reported with its number and the others still go in. Every change is audited.
 */
export async function importProducts(path: string, actor: AuditActor, onItem?: () => void) {
  const rows = await readRows(path, 'products')
  const created: { id: number; slug: string }[] = []
  const updated: { id: number; slug: string }[] = []
  const errors: RowError[] = []
  for (const [index, row] of rows.entries()) {
    try {
      const payload = productPayload(row)
      const slugSource = payload.slug ?? payload.productTitle
      const slug = typeof slugSource === 'string' ? slugify(slugSource) : null
      const existing = slug ? await Product.findBy('slug', slug) : null
      if (existing) {
        const changes = await productInput.forUpdate({ ...payload, slug })
        // The slug found the product; it is not changed by an import.
        delete changes.slug
        const product = await productAdminService.update(existing.id, changes)
        await auditLog.record({
          actor,
          action: 'product.update',
          subjectType: 'product',
          subjectId: product.id,
          meta: { via: 'products:import' },
        })
        updated.push({ id: product.id, slug: product.slug })
      } else {
        const fields = await productInput.forCreate({ ...payload, slug })
        const product = await productAdminService.create(fields)
        await auditLog.record({
          actor,
          action: 'product.create',
          subjectType: 'product',
          subjectId: product.id,
          meta: { via: 'products:import' },
        })
        created.push({ id: product.id, slug: product.slug })
      }
    } catch (error) {
      errors.push({ row: index + 1, error: messageOf(error) })
    }
    onItem?.()
  }
  return { total: rows.length, created, updated, errors }
}
