import app from '@adonisjs/core/services/app'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'
import { assertAcceptableBody, plainJsonBody } from '#core/services/json_body'

/** zlib's errors for a body whose Content-Encoding does not match its bytes. */
function isDecodingError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^Z_[A-Z_]+$/.test(code)
}

let parser: BodyParserMiddleware | undefined

/**
 * Request bodies with the limits the framework's parser lacks: a parsed body deeper than
 * MAX_BODY_DEPTH or holding malformed Unicode is a 400 before anything copies or reads it (the
 * framework deep-clones every body, which overflowed the stack on JSON nested 5,000 deep), and a
 * body that does not inflate under its Content-Encoding is a 400 rather than a server error.
 * A plain JSON body, nearly every body the API gets, is read by `plainJsonBody` (the same rules
 * without the generic parser's content negotiation, and read once if the sold-out shortcut read
 * it already); every other body by the framework's parser.
 */
export default class SafeBodyParserMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const request = ctx.request
    const plain = plainJsonBody(request)
    if (plain) {
      const { parsed, raw } = await plain
      // What the framework's parser gives every request it sees: `validateUsing` reads the
      // files from it, and a JSON body has none.
      request.__raw_files = {}
      request.setInitialBody(parsed as Record<string, any>)
      request.updateRawBody(raw)
      return next()
    }
    parser ??= await app.container.make(BodyParserMiddleware)
    const setInitialBody = request.setInitialBody.bind(request)
    request.setInitialBody = (body: Record<string, any>) => {
      assertAcceptableBody(body)
      setInitialBody(body)
    }
    let parsed = false
    try {
      return await parser.handle(ctx, () => {
        parsed = true
        return next()
      })
    } catch (error) {
      if (!parsed && isDecodingError(error)) {
        throw AppError.badRequest(
          'The request body could not be decoded with its Content-Encoding.',
          'malformed_body'
        )
      }
      throw error
    }
  }
}
