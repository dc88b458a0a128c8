import type { HttpContext } from '@adonisjs/core/http'
import { releaseReports } from '#release/services/release_report'
import { AppError } from '#core/exceptions/app_error'

function productIdOf(value: unknown) {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw AppError.notFound('There is no report for this product.', 'report_not_found')
  }
  return id
}

export default class ReleaseReportsController {
  /** GET /api/releases: settled releases of the last 90 days and the rate per retailer. */
  async index() {
    return releaseReports.releases()
  }

  /**
   * GET /api/releases/:productId/report: public, no personal data; a signed-in customer's own
   * orders are marked `mine`. 404 while any order still waits for its result.
   */
  async show({ auth, params }: HttpContext) {
    const viewer = (await auth.use('api').check()) ? auth.use('api').user! : null
    return releaseReports.publicReport(productIdOf(params.productId), viewer?.id ?? null)
  }

  /** GET /api/admin/releases/:productId/report: open or settled, with the reconciliation. */
  async console({ params }: HttpContext) {
    return releaseReports.consoleReport(productIdOf(params.productId))
  }
}
