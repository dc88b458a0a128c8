import type { IncomingMessage } from 'node:http'
import type { Request } from '@adonisjs/core/http'
import { Exception } from '@adonisjs/core/exceptions'
import string from '@adonisjs/core/helpers/string'
import { parse as secureParse } from 'secure-json-parse'
import bodyParserConfig from '#config/bodyparser'
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

/** Refuses a parsed body the app cannot take (see bodyProblem) with a 400. */
export function assertAcceptableBody(body: unknown) {
  const problem = bodyProblem(body)
  if (problem) throw AppError.badRequest(problem, 'malformed_body')
}

export type JsonBody = { parsed: unknown; raw: string }

const JSON_TYPES = new Set(bodyParserConfig.json.types.map((type) => type.toLowerCase()))
const JSON_LIMIT = sizeInBytes(bodyParserConfig.json.limit)

function sizeInBytes(limit: string | number): number {
  const bytes = string.bytes.parse(limit)
  if (bytes === null) throw new Error(`config/bodyparser.ts: json.limit ${limit} is not a size`)
  return bytes
}

const BODY_METHODS = new Set(bodyParserConfig.allowedMethods)
/** What the framework's strict JSON parser accepts as the start of a body: an object or array. */
const STRICT_START = /^[ \t\n\r]*[[{]/
const DIGITS = /^\d+$/

/**
 * Whether the request is a JSON body in the plain forms this reader takes: a listed JSON type
 * with no parameter but `charset=utf-8`, a Content-Length or chunked, no Content-Encoding.
 * Anything else (a gzip body, a form, an odd content type) goes to the framework's parser.
 */
function isPlainJson(message: IncomingMessage): boolean {
  const headers = message.headers
  const length = headers['content-length']
  const transfer = headers['transfer-encoding']
  if (length === undefined) {
    if (transfer === undefined || transfer.toLowerCase() !== 'chunked') return false
  } else if (!DIGITS.test(length) || transfer !== undefined) {
    return false
  }
  const encoding = headers['content-encoding']
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false
  const contentType = headers['content-type']
  if (contentType === undefined) return false
  const separator = contentType.indexOf(';')
  if (separator === -1) return JSON_TYPES.has(contentType.trim().toLowerCase())
  if (!JSON_TYPES.has(contentType.slice(0, separator).trim().toLowerCase())) return false
  return (
    contentType
      .slice(separator + 1)
      .trim()
      .toLowerCase() === 'charset=utf-8'
  )
}

function tooLarge() {
  return new Exception('request entity too large', {
    status: 413,
    code: 'E_REQUEST_ENTITY_TOO_LARGE',
  })
}

/** Reads the body: `length` bytes as its Content-Length says, or up to the limit when chunked. */
function read(message: IncomingMessage, length: number | null): Promise<JsonBody> {
  if (length !== null && length > JSON_LIMIT) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const cleanUp = () => {
      message.off('data', onData)
      message.off('end', onEnd)
      message.off('error', onError)
      message.off('close', onClose)
    }
    const fail = (error: Error) => {
      cleanUp()
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      chunks.push(chunk)
      if (received > JSON_LIMIT) {
        // As the framework's parser does: stop reading, answer 413, read no further.
        message.pause()
        fail(tooLarge())
      }
    }
    const onEnd = () => {
      cleanUp()
      if (length !== null && received !== length) {
        return reject(
          new Exception('request size did not match content length', {
            status: 400,
            code: 'E_REQUEST_SIZE_INVALID',
          })
        )
      }
      try {
        resolve(parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)))
      } catch (error) {
        reject(error)
      }
    }
    const onError = (error: Error) => fail(error)
    const onClose = () =>
      fail(new Exception('request aborted', { status: 400, code: 'E_REQUEST_ABORTED' }))
    message.on('data', onData)
    message.on('end', onEnd)
    message.on('error', onError)
    message.on('close', onClose)
  })
}

/**
 * The framework's JSON parser's rules on decoded text: a leading byte order mark is dropped, an
 * empty body is `{}`, anything but an object or array is a 422, a syntax error a 400, and
 * `__proto__` and `constructor` keys are removed (secure-json-parse, as the framework does).
 */
function parse(bytes: Buffer): JsonBody {
  let raw = bytes.toString('utf8')
  if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1)
  if (raw === '') return { parsed: {}, raw }
  if (!STRICT_START.test(raw)) {
    throw new Exception('Invalid JSON, only supports object and array', { status: 422 })
  }
  let parsed: unknown
  try {
    parsed = secureParse(raw, undefined, { protoAction: 'remove', constructorAction: 'remove' })
  } catch (error) {
    throw Object.assign(error as Error, { status: 400 })
  }
  assertAcceptableBody(parsed)
  return { parsed, raw }
}

const bodies = new WeakMap<IncomingMessage, Promise<JsonBody>>()

/**
 * The request's JSON body, read and checked once whoever asks first (the sold-out shortcut
 * before the router, or the body parser), or undefined when it is not a plain JSON body (see
 * isPlainJson). Bounds and refusals are the framework parser's and bodyProblem's: over the JSON
 * limit is a 413 (before a byte is read when the Content-Length says so), a body cut short a 400.
 */
export function plainJsonBody(request: Request): Promise<JsonBody> | undefined {
  const message = request.request
  const known = bodies.get(message)
  if (known) return known
  if (!BODY_METHODS.has(message.method!) || !isPlainJson(message)) return undefined
  const length = message.headers['content-length']
  const body = read(message, length === undefined ? null : Number(length))
  bodies.set(message, body)
  return body
}
