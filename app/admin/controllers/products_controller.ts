import type { HttpContext } from '@adonisjs/core/http'
import { adminProducts } from '#admin/services/admin_products_service'
import { auditLog } from '#core/services/audit_log_service'
import { sendList } from '#core/services/rest_query'
import { specEditProductValidator } from '#admin/validators/admin_validators'
import { productInput } from '#catalog/services/product_input'

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
    const fields = await productInput.forCreate(ctx.request.all())
    const product = await adminProducts.create(fields, auditLog.fromRequest(ctx))
    return ctx.response.created(product)
  }

  async update(ctx: HttpContext) {
    const changes = await productInput.forUpdate(ctx.request.all())
    return adminProducts.update(Number(ctx.params.id), changes, auditLog.fromRequest(ctx))
  }

  async destroy(ctx: HttpContext) {
    return adminProducts.delete(Number(ctx.params.id), auditLog.fromRequest(ctx))
  }

  /** Spec: POST /api/admin/products/create -> { success, product } */
  async specCreate(ctx: HttpContext) {
    const fields = await productInput.forCreate(ctx.request.all())
    const product = await adminProducts.create(fields, auditLog.fromRequest(ctx))
    return { success: true, product }
  }

  /** Spec: POST /api/admin/products/edit with the product (and its productId) in the body. */
  async specEdit(ctx: HttpContext) {
    const { productId } = await ctx.request.validateUsing(specEditProductValidator)
    const changes = await productInput.forUpdate(ctx.request.all())
    const product = await adminProducts.update(productId, changes, auditLog.fromRequest(ctx))
    return { success: true, product }
  }

  /** Spec: DELETE /api/admin/products/id/:id */
  async specDestroy(ctx: HttpContext) {
    const product = await adminProducts.delete(Number(ctx.params.id), auditLog.fromRequest(ctx))
    return { success: true, product }
  }
}
