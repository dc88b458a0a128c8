import type { HttpContext } from '@adonisjs/core/http'
import { runList, sendList } from '#core/services/rest_query'
import { incidentList, incidents, presentIncident } from '#alerts/services/incidents'

/** The console's incident list (GET /api/admin/incidents, ra-data-simple-rest) and one incident. */
export default class IncidentsController {
  async index({ request, response }: HttpContext) {
    return sendList(
      response,
      await runList(incidents.query(), incidentList, request.qs(), presentIncident)
    )
  }

  async show({ params }: HttpContext) {
    return presentIncident(await incidents.find(Number(params.id)))
  }
}
