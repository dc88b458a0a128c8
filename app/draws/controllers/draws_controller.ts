import type { HttpContext } from '@adonisjs/core/http'
import { drawRunner } from '#draws/services/draw_runner'
import { drawEntries } from '#draws/services/draw_entries'
import { beaconWaits } from '#draws/services/beacon_waits'
import { auditLog } from '#core/services/audit_log_service'

export default class DrawsController {
  /**
   * GET /api/products/:id/draw: the draw's public proof (commitment; at close the entry ids and
   * their root; after the draw the beacon, the seed, the winners and the alternates), with the
   * rule of its beacon round and, while that round is late, a plain-words `delay`.
   */
  async proof({ params }: HttpContext) {
    const proof = await drawRunner.proof(Number(params.id))
    return {
      ...proof,
      ...(await beaconWaits.public('draw', proof.productId, proof.beacon?.round ?? null)),
    }
  }

  /** GET /api/products/:id/draw/entries/:entryId: one entry's inclusion proof. */
  async inclusion({ params }: HttpContext) {
    return drawEntries.inclusion(Number(params.id), String(params.entryId))
  }

  /** GET /api/admin/draws/:id: the console's draw view (proof, checks, refusals, beacon state). */
  async show({ params }: HttpContext) {
    const productId = Number(params.id)
    const proof = await drawRunner.proof(productId)
    return {
      ...proof,
      ...(await beaconWaits.public('draw', productId, proof.beacon?.round ?? null)),
      ...(await beaconWaits.console('draw', productId)),
      ...(await drawRunner.figures(productId)),
      verification: await drawRunner.verify(proof),
    }
  }

  /** POST /api/admin/draws/:id/run: run the draw now (once its entries have closed). */
  async run(ctx: HttpContext) {
    const { actor } = auditLog.fromRequest(ctx)
    return drawRunner.run(Number(ctx.params.id), actor ?? { label: 'console' })
  }
}
