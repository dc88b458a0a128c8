import type { HttpContext } from '@adonisjs/core/http'
import { drawRunner } from '#draws/services/draw_runner'
import { auditLog } from '#core/services/audit_log_service'

export default class DrawsController {
  /** GET /api/products/:id/draw: the draw's public proof (commitment; then seed and entry ids). */
  async proof({ params }: HttpContext) {
    return drawRunner.proof(Number(params.id))
  }

  /** GET /api/admin/draws/:id: the console's draw view (proof, entries, refusals per rule). */
  async show({ params }: HttpContext) {
    const productId = Number(params.id)
    const proof = await drawRunner.proof(productId)
    return {
      ...proof,
      ...(await drawRunner.figures(productId)),
      verification: proof.seed ? await drawRunner.verify(proof) : null,
    }
  }

  /** POST /api/admin/draws/:id/run: run the draw now (once its entries have closed). */
  async run(ctx: HttpContext) {
    const { actor } = auditLog.fromRequest(ctx)
    return drawRunner.run(Number(ctx.params.id), actor ?? { label: 'console' })
  }
}
