import type { HttpContext } from '@adonisjs/core/http'
import { waitingRoom, type LineStatus } from '#draws/services/waiting_room'
import { beaconWaits } from '#draws/services/beacon_waits'

/** While places are being drawn: a plain-words `delay` if the promised randomness is late. */
async function withDelay(productId: number, status: LineStatus) {
  if (status.state !== 'drawing') return status
  const { delay } = await beaconWaits.public('line', productId, status.round)
  return { ...status, delay }
}

export default class WaitingRoomsController {
  /** POST /api/products/:id/queue: join the line of a drop with a waiting room. */
  async join({ auth, params }: HttpContext) {
    const productId = Number(params.id)
    return withDelay(productId, await waitingRoom.join(productId, auth.use('api').getUserOrFail()))
  }

  /**
   * GET /api/products/:id/queue: the countdown, the customer's place, or their pass; while places
   * are being drawn, a plain-words `delay` if the promised randomness is late.
   */
  async status({ auth, params }: HttpContext) {
    const productId = Number(params.id)
    return withDelay(
      productId,
      await waitingRoom.status(productId, auth.use('api').getUserOrFail().id)
    )
  }

  /** GET /api/products/:id/queue/proof: the line's public proof (places, beacon, commitment). */
  async proof({ params }: HttpContext) {
    const proof = await waitingRoom.proof(Number(params.id))
    return {
      ...proof,
      ...(await beaconWaits.public('line', proof.productId, proof.beacon?.round ?? null)),
    }
  }

  /** GET /api/admin/waiting-rooms/:id: people in line, let through, the rate, the beacon. */
  async show({ params }: HttpContext) {
    const figures = await waitingRoom.figures(Number(params.id))
    return { ...figures, ...(await beaconWaits.console('line', figures.productId)) }
  }
}
