import app from '@adonisjs/core/services/app'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { AppError } from '#core/exceptions/app_error'

/** A UTF-16 surrogate not paired with its partner (a paired one reads as one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 64

/**
 * Why a parsed body cannot be accepted, or null. Walks the value without recursion, so a body
 * nested thousands of levels deep is measured instead of overflowing the stack; text (keys
 * included) must be well-formed Unicode, since a lone UTF-16 surrogate (`"\ud800"` in JSON)
 * cannot be stored in MariaDB's utf8mb4 columns nor put into a URL or an e-mail.
 */
export function bodyProblem(body: unknown): string | null {
  const stack: [unknown, number][] = [[body, 0]]
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value))
        return 'The request body contains text that is not valid Unicode.'
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) {
      return `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels).`
    }
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key))
        return 'The request body contains text that is not valid Unicode.'
      stack.push([item, depth + 1])
    }
  }
  return null
}

/** zlib's errors for a body whose Content-Encoding does not match its bytes. */
function isDecodingError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^Z_[A-Z_]+$/.test(code)
}

let parser: BodyParserMiddleware | undefined

/**
 * The framework's body parser, with the limits it lacks: a parsed body deeper than
 * MAX_BODY_DEPTH or holding malformed Unicode is a 400 before anything copies or reads it (the
 * framework deep-clones every body, which overflowed the stack on JSON nested 5,000 deep), and a
 * body that does not inflate under its Content-Encoding is a 400 rather than a server error.
 */
export default class SafeBodyParserMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    parser ??= await app.container.make(BodyParserMiddleware)
    const request = ctx.request
    const setInitialBody = request.setInitialBody.bind(request)
    request.setInitialBody = (body: Record<string, any>) => {
      const problem = bodyProblem(body)
      if (problem) throw AppError.badRequest(problem, 'malformed_body')
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
