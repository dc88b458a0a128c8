import type { ApiRoute, ApiRoutes, ErrorEnvelope } from '@shared/api/contract'
import { session } from '../session/session'

/** The server's error envelope: `{success:false, error, code, errors?}`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly errors: Record<string, string> = {}
  ) {
    super(message)
  }
}

/** The names of a path's parameters: `/api/products/:id/draw/entries/:entryId` -> id | entryId. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never

type Route<Key extends ApiRoute> = ApiRoutes[Key]

/** A call's options, from the contract: its path's parameters, its body and its query. */
export type CallOptions<Key extends ApiRoute> = {
  /** Send the stored bearer token (protected calls). */
  auth?: boolean
  /** Send this bearer token instead (a sign-in's second step, before anything is stored). */
  token?: string
} & ([ParamNames<Key>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<Key>, string | number> }) &
  (Route<Key> extends { body: infer Body } ? { body: Body } : { body?: undefined }) &
  (Route<Key> extends { query: infer Query } ? { query: Query } : { query?: undefined })

type Args<Key extends ApiRoute> =
  object extends CallOptions<Key> ? [options?: CallOptions<Key>] : [options: CallOptions<Key>]

/** What a call answers, read from the server's code (`shared/api/contract.ts`). */
export type Answer<Key extends ApiRoute> = Route<Key>['response']

/**
 * One place for every call, named by the contract's key (`'POST /api/user/billing/set'`): the
 * path's parameters filled in, JSON in and out, the bearer token on protected calls, and errors as
 * ApiError with the server's message. A 401 on a protected call means the stored token is dead:
 * the session is cleared and the page reloads, so the guard sends the visitor to /login.
 */
export async function api<Key extends ApiRoute>(
  route: Key,
  ...[options]: Args<Key>
): Promise<Answer<Key>> {
  const [method, template] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string]
  const {
    params,
    body,
    query,
    auth = false,
    token: givenToken,
  } = (options ?? {}) as {
    params?: Record<string, string | number>
    body?: unknown
    query?: Record<string, string>
    auth?: boolean
    token?: string
  }
  const path = template.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(params?.[name] ?? ''))
  )
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const token = givenToken ?? (auth ? session.token() : null)
  if (token) headers.authorization = `Bearer ${token}`
  const url = query ? `${path}?${new URLSearchParams(query)}` : path

  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError('We could not reach Dropslot. Check your connection.', 0, 'network')
  }

  const payload = await response.json().catch(() => null)
  if (!response.ok) {
    if (response.status === 401 && token && !givenToken) {
      session.clear()
      window.location.reload()
    }
    const envelope = (payload ?? {}) as Partial<ErrorEnvelope>
    throw new ApiError(
      envelope.error ?? 'Something went wrong. Please try again.',
      response.status,
      envelope.code ?? 'error',
      envelope.errors ?? {}
    )
  }
  return payload as Answer<Key>
}
