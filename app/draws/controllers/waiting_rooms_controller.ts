import type { HttpContext } from '@adonisjs/core/http'
import { waitingRoom } from '#draws/services/waiting_room'

export default class WaitingRoomsController {
  /** POST /api/products/:id/queue: join the line of a drop with a waiting room. */
  async join({ auth, params }: HttpContext) {
    return waitingRoom.join(Number(params.id), auth.use('api').getUserOrFail())
  }

  /** GET /api/products/:id/queue: the countdown, the customer's place, or their pass. */
  async status({ auth, params }: HttpContext) {
    return waitingRoom.status(Number(params.id), auth.use('api').getUserOrFail().id)
  }

  /** GET /api/products/:id/queue/proof: the line's public proof (places, beacon, commitment). */
  async proof({ params }: HttpContext) {
    return waitingRoom.proof(Number(params.id))
  }

  /** GET /api/admin/waiting-rooms/:id: people in line, let through, the rate, the beacon. */
  async show({ params }: HttpContext) {
    return waitingRoom.figures(Number(params.id))
  }
}
