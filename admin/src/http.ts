import { fetchUtils, HttpError } from 'react-admin'
import type { ErrorEnvelope } from '@shared/api/contract'
import { session } from './session'
import { isStepUpRefusal, withStepUp } from './signIn/stepUp'

/** The server's error envelope (docs/decisions.md, "Error envelope"). */
export type Envelope = ErrorEnvelope

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && 'error' in body && 'code' in body
}

/**
 * Every console call: the bearer token on the way out; on the way back, the envelope's message
 * becomes the error message, and field errors become react-admin's `{ errors: { field: msg } }`
 * body so forms show each message under its input (and the summary on the form itself).
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  return withStepUp(async () => {
    const headers = new Headers(options.headers ?? { Accept: 'application/json' })
    const token = session.token()
    if (token) headers.set('Authorization', `Bearer ${token}`)
    try {
      return await fetchUtils.fetchJson(url, { ...options, headers })
    } catch (error) {
      throw toHttpError(error)
    }
  }, isStepUpError)
}

const isStepUpError = (error: unknown) =>
  error instanceof HttpError &&
  isStepUpRefusal(error.status, { code: (error.body as { code?: string } | null)?.code })

export function toHttpError(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error
  const body = error.body as unknown
  if (!isEnvelope(body)) return error
  const fieldErrors = body.errors ?? {}
  const hasFieldErrors = error.status === 422 && Object.keys(fieldErrors).length > 0
  return new HttpError(body.error, error.status, {
    code: body.code,
    ...(hasFieldErrors ? { errors: { ...fieldErrors, root: { serverError: body.error } } } : {}),
  })
}

/** A raw authenticated fetch (downloads), with the same error mapping and step-up. */
export async function fetchWithToken(url: string, init: RequestInit = {}) {
  return withStepUp(() => fetchOnce(url, init), isStepUpError)
}

async function fetchOnce(url: string, init: RequestInit) {
  const headers = new Headers(init.headers)
  const token = session.token()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  const response = await fetch(url, { ...init, headers })
  if (!response.ok) {
    let body: unknown = null
    try {
      body = await response.json()
    } catch {
      body = null
    }
    const message = isEnvelope(body) ? body.error : response.statusText
    throw new HttpError(message, response.status, body)
  }
  return response
}

/** Saves a response as a file through the browser's download. */
export async function downloadResponse(response: Response, fallbackName: string) {
  const disposition = response.headers.get('content-disposition') ?? ''
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName
  const blob = await response.blob()
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = name
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
}
