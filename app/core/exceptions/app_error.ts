import { Exception } from '@adonisjs/core/exceptions'

export type FieldErrors = Record<string, string>

/**
 * A failure the caller can act on. Its message is safe to show to a person; `code` is stable
 * for programs (the storefront switches on 'duplicate', 'sold_out', ...).
 */
export class AppError extends Exception {
  declare code: string
  errors?: FieldErrors

  constructor(message: string, options: { status: number; code: string; errors?: FieldErrors }) {
    // A 4xx is an answer, not a bug: nobody reads its stack (the handler logs only 5xx), and
    // capturing one is the dearest part of saying "sold out" to thousands of presses a second.
    const stackTraceLimit = Error.stackTraceLimit
    if (options.status < 500) Error.stackTraceLimit = 0
    super(message, { status: options.status, code: options.code })
    Error.stackTraceLimit = stackTraceLimit
    this.errors = options.errors
  }

  static badRequest(message: string, code = 'bad_request', errors?: FieldErrors) {
    return new AppError(message, { status: 400, code, errors })
  }

  static notFound(message = 'Not found.', code = 'not_found') {
    return new AppError(message, { status: 404, code })
  }

  static conflict(message: string, code: string) {
    return new AppError(message, { status: 409, code })
  }

  static unprocessable(message: string, errors: FieldErrors = {}, code = 'validation_failed') {
    return new AppError(message, { status: 422, code, errors })
  }

  static forbidden(message = 'You are not allowed to do that.') {
    return new AppError(message, { status: 403, code: 'forbidden' })
  }
}
