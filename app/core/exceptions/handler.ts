import { ExceptionHandler, type HttpContext } from '@adonisjs/core/http'
import { errors as vineErrors } from '@vinejs/vine'
import { errors as authErrors } from '@adonisjs/auth'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { AppError, type FieldErrors } from '#core/exceptions/app_error'
import { isDatabaseUnavailable } from '#core/helpers/db_errors'
import { TooManyAttemptsError } from '#core/services/rate_limits'

export type ErrorEnvelope = {
  success: false
  error: string
  code: string
  errors?: FieldErrors
}

const CODES_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'too_many_requests',
}

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER = 5

type EnvelopedError = {
  status: number
  envelope: ErrorEnvelope
  headers: Record<string, string>
}

/** Each field's first message; the first of them is the envelope's error. */
function validationFailure(
  error: InstanceType<typeof vineErrors.E_VALIDATION_ERROR>
): EnvelopedError {
  const fieldErrors: FieldErrors = {}
  for (const message of error.messages as { field: string; message: string }[]) {
    fieldErrors[message.field] ??= message.message
  }
  const first = Object.values(fieldErrors)[0]
  return {
    status: 422,
    headers: {},
    envelope: {
      success: false,
      error: first ?? 'Please fill out the form correctly.',
      code: 'validation_failed',
      errors: fieldErrors,
    },
  }
}

function appFailure(error: AppError): EnvelopedError {
  const headers: Record<string, string> = {}
  if (error instanceof TooManyAttemptsError) {
    headers['Retry-After'] = String(error.retryAfterSeconds)
  }
  return {
    status: error.status,
    headers,
    envelope: {
      success: false,
      error: error.message,
      code: error.code,
      ...(error.errors ? { errors: error.errors } : {}),
    },
  }
}

function rateLimited(
  error: InstanceType<typeof limiterErrors.E_TOO_MANY_REQUESTS>
): EnvelopedError {
  const retryAfter = Math.max(1, Math.ceil(error.response.availableIn))
  return {
    status: 429,
    headers: { 'Retry-After': String(retryAfter) },
    envelope: {
      success: false,
      error: `Too many attempts. Please try again in ${retryAfter} seconds.`,
      code: 'too_many_requests',
    },
  }
}

/**
 * Every error leaves the server as the JSON envelope of the error contract, with the right
 * status. Anything unexpected is a 500 whose body says nothing about the internals (no SQL, no
 * host, no stack, in any environment): those go to the log with the request id. An unreachable
 * database is a 503 with Retry-After, not a bug.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  async handle(error: unknown, ctx: HttpContext) {
    const { status, envelope, headers } = this.toEnvelope(error)
    for (const [name, value] of Object.entries(headers)) ctx.response.header(name, value)
    return ctx.response.status(status).json(envelope)
  }

  async report(error: unknown, ctx: HttpContext) {
    const status = this.statusOf(error)
    if (status >= 500) {
      ctx.logger.error({ err: error }, status === 503 ? 'database unavailable' : 'unexpected error')
    }
  }

  toEnvelope(error: unknown): EnvelopedError {
    if (error instanceof vineErrors.E_VALIDATION_ERROR) return validationFailure(error)
    if (error instanceof AppError) return appFailure(error)

    if (error instanceof authErrors.E_UNAUTHORIZED_ACCESS) {
      return {
        status: 401,
        headers: {},
        envelope: { success: false, error: 'Please log in to continue.', code: 'unauthorized' },
      }
    }

    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) return rateLimited(error)

    if (isDatabaseUnavailable(error)) {
      return {
        status: 503,
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER) },
        envelope: {
          success: false,
          error: 'The service is briefly unavailable. Please try again in a few seconds.',
          code: 'service_unavailable',
        },
      }
    }

    const status = this.statusOf(error)
    if (status >= 400 && status < 500) {
      return {
        status,
        headers: {},
        envelope: {
          success: false,
          error: this.clientMessage(error, status),
          code: CODES_BY_STATUS[status] ?? 'bad_request',
        },
      }
    }

    return {
      status: 500,
      headers: {},
      envelope: {
        success: false,
        error: 'Something went wrong. Please try again.',
        code: 'server_error',
      },
    }
  }

  protected statusOf(error: unknown): number {
    if (isDatabaseUnavailable(error)) return 503
    const candidate = (error as { status?: unknown; statusCode?: unknown }) ?? {}
    const status = Number(candidate.status ?? candidate.statusCode)
    return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500
  }

  protected clientMessage(error: unknown, status: number): string {
    const code = (error as { code?: string }).code
    if (code === 'E_ROUTE_NOT_FOUND') return 'No such endpoint.'
    if (status === 413) return 'The request body is too large.'
    if (status === 415) return 'Unsupported content type.'
    if (status === 400 && error instanceof SyntaxError) return 'The request body is not valid JSON.'
    if (status === 400) return 'The request could not be read.'
    if (status === 404) return 'Not found.'
    if (status === 401) return 'Please log in to continue.'
    if (status === 403) return 'You are not allowed to do that.'
    return 'The request could not be processed.'
  }
}
