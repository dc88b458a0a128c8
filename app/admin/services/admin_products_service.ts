import { productQueries } from '#catalog/services/product_queries'
import { presentStoredRetailers, productRetailers } from '#catalog/services/product_retailers'
import { ACTIVE_STATUSES, orderQueries } from '#orders/services/order_queries'
import { AppError } from '#core/exceptions/app_error'
import {
  productAdminService,
  type ProductChanges,
  type ProductFields,
} from '#catalog/services/product_admin_service'
import { auditLog, type AuditEntry } from '#core/services/audit_log_service'
import { productList } from '#admin/services/list_definitions'
import { presentAdminProduct } from '#admin/services/presenters'
import { runList } from '#core/services/rest_query'

type Who = Pick<AuditEntry, 'actor' | 'ip'>

/** The admin's product use cases: list, show, create, edit, delete, each audited. */
export class AdminProductsService {
  list(qs: Record<string, unknown>) {
    return runList(productQueries.query(), productList, qs, presentAdminProduct)
  }

  async show(id: number) {
    const query = productQueries.query().where('products.id', id)
    productList.decorate!(query)
    const product = await query.first()
    if (!product) throw AppError.notFound('Product not found.', 'product_not_found')
    return presentAdminProduct(product)
  }

  async create(fields: ProductFields, who: Who) {
    const product = await productAdminService.create(fields)
    await auditLog.record({
      ...who,
      action: 'product.create',
      subjectType: 'product',
      subjectId: product.id,
      meta: {
        title: product.title,
        totalStock: product.totalStock,
        priceCents: product.priceCents,
      },
    })
    return this.show(product.id)
  }

  async update(id: number, changes: ProductChanges, who: Who) {
    const before = await productAdminService.find(id)
    const listed = changes.retailers !== undefined || changes.retailer !== undefined
    const retailersBefore = listed ? await productRetailers.listOf(before) : []
    const product = await productAdminService.update(id, changes)
    const changed: Record<string, unknown> = {}
    if (listed) {
      const from = presentStoredRetailers(retailersBefore)
      const to = presentStoredRetailers(await productRetailers.listOf(product))
      if (JSON.stringify(from) !== JSON.stringify(to)) changed.retailers = { from, to }
    }
    for (const key of Object.keys(changes) as (keyof ProductChanges)[]) {
      if (key === 'retailers') continue
      const previous = key === 'releaseAt' ? before.releaseAt?.toISO() : (before as any)[key]
      const next = key === 'releaseAt' ? product.releaseAt?.toISO() : (product as any)[key]
      if (JSON.stringify(previous) !== JSON.stringify(next))
        changed[key] = { from: previous ?? null, to: next ?? null }
    }
    if (Object.keys(changed).length > 0) {
      await auditLog.record({
        ...who,
        action: 'product.update',
        subjectType: 'product',
        subjectId: product.id,
        meta: { title: product.title, changed },
      })
    }
    return this.show(product.id)
  }

  /**
   * Refused while the product has active orders (pending, processing or successful): those
   * customers are waiting for release day or have been charged.
   */
  async delete(id: number, who: Who) {
    const product = await productAdminService.find(id)
    const active = await orderQueries
      .query()
      .where('product_id', product.id)
      .whereIn('status', ACTIVE_STATUSES)
      .count('* as total')
    const activeCount = Number(active[0]?.$extras.total ?? 0)
    if (activeCount > 0) {
      throw AppError.conflict(
        `"${product.title}" has ${activeCount} active order${activeCount === 1 ? '' : 's'} (pending, processing or successful), so it cannot be deleted. Resolve or cancel those orders first, or mark the product unavailable to hide it from the shop.`,
        'product_has_active_orders'
      )
    }
    const record = presentAdminProduct(product)
    await productAdminService.delete(product.id)
    await auditLog.record({
      ...who,
      action: 'product.delete',
      subjectType: 'product',
      subjectId: product.id,
      meta: {
        title: product.title,
        stockTaken: product.stockTaken,
        totalStock: product.totalStock,
      },
    })
    return record
  }
}

export const adminProducts = new AdminProductsService()
