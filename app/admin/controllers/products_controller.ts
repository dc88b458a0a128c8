import type { HttpContext } from '@adonisjs/core/http'
import { adminProducts } from '#admin/services/admin_products_service'
import { auditLog } from '#core/services/audit_log_service'
import { sendList } from '#core/services/rest_query'
import {
  createProductValidator,
  specEditProductValidator,
  updateProductValidator,
} from '#admin/validators/admin_validators'
import type { ProductChanges, ProductFields } from '#catalog/services/product_admin_service'
import type { Infer } from '@vinejs/vine/types'

function toFields(payload: Infer<typeof createProductValidator>): ProductFields {
  return {
    title: payload.productTitle,
    slug: payload.slug,
    image: payload.productImage,
    description: payload.description,
    priceCents: Math.round(payload.price * 100),
    sizeType: payload.sizeType,
    sizes: payload.sizes,
    styles: payload.styles,
    tags: payload.tags,
    avail: payload.avail,
    totalStock: payload.totalStock,
    stockTaken: payload.stockTaken,
    releaseAt: payload.releaseAt,
  }
}

function toChanges(payload: Infer<typeof updateProductValidator>): ProductChanges {
  const changes: ProductChanges = {
    title: payload.productTitle,
    slug: payload.slug,
    image: payload.productImage,
    description: payload.description,
    priceCents: payload.price === undefined ? undefined : Math.round(payload.price * 100),
    sizeType: payload.sizeType,
    sizes: payload.sizes,
    styles: payload.styles,
    tags: payload.tags,
    avail: payload.avail,
    totalStock: payload.totalStock,
    releaseAt: payload.releaseAt,
  }
  return Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined)
  ) as ProductChanges
}

/**
 * Products: ra-data-simple-rest resource (`/api/admin/products[/:id]`) and the spec's own
 * admin calls (`/create`, `/edit`, `/id/:id`), both over the same services.
 */
export default class ProductsController {
  async index({ request, response }: HttpContext) {
    return sendList(response, await adminProducts.list(request.qs()))
  }

  async show({ params }: HttpContext) {
    return adminProducts.show(Number(params.id))
  }

  async store(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(createProductValidator)
    const product = await adminProducts.create(toFields(payload), auditLog.fromRequest(ctx))
    return ctx.response.created(product)
  }

  async update(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(updateProductValidator)
    return adminProducts.update(
      Number(ctx.params.id),
      toChanges(payload),
      auditLog.fromRequest(ctx)
    )
  }

  async destroy(ctx: HttpContext) {
    return adminProducts.delete(Number(ctx.params.id), auditLog.fromRequest(ctx))
  }

  /** Spec: POST /api/admin/products/create -> { success, product } */
  async specCreate(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(createProductValidator)
    const product = await adminProducts.create(toFields(payload), auditLog.fromRequest(ctx))
    return { success: true, product }
  }

  /** Spec: POST /api/admin/products/edit with the product (and its productId) in the body. */
  async specEdit(ctx: HttpContext) {
    const { productId } = await ctx.request.validateUsing(specEditProductValidator)
    const payload = await ctx.request.validateUsing(updateProductValidator)
    const product = await adminProducts.update(
      productId,
      toChanges(payload),
      auditLog.fromRequest(ctx)
    )
    return { success: true, product }
  }

  /** Spec: DELETE /api/admin/products/id/:id */
  async specDestroy(ctx: HttpContext) {
    const product = await adminProducts.delete(Number(ctx.params.id), auditLog.fromRequest(ctx))
    return { success: true, product }
  }
}
