import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { DATABASE_RETRY_AFTER } from '#core/exceptions/handler'

export default class HealthController {
  async show({ response }: HttpContext) {
    try {
      await db.rawQuery('select 1')
      return { status: 'ok', database: 'ok' }
    } catch {
      response.header('Retry-After', String(DATABASE_RETRY_AFTER))
      return response.status(503).json({ status: 'degraded', database: 'unreachable' })
    }
  }
}
