import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'

/**
 * For calls that move money (`middleware.jsonOnly()`): the request must be a JSON object the
 * server has parsed. A body in any other type (text/plain, a form) or a JSON array is refused
 * before it reaches the controller, instead of reading as "no fields" and falling back to
 * defaults: a 415 or a 400, and nothing runs.
 */
export default class JsonOnlyMiddleware {
  async handle({ request }: HttpContext, next: NextFn) {
    if (!request.is(['json'])) {
      throw new AppError('Send this request as JSON (Content-Type: application/json).', {
        status: 415,
        code: 'unsupported_media_type',
      })
    }
    const body = request.body()
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw AppError.badRequest('The request body must be a JSON object.', 'malformed_body')
    }
    return next()
  }
}
