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

type Options = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  body?: unknown
  query?: Record<string, string>
  /** Send the stored bearer token (protected calls). */
  auth?: boolean
}

/**
 * One place for every call: JSON in and out, the bearer token on protected calls, and errors as
 * ApiError with the server's message. A 401 on a protected call means the stored token is dead:
 * the session is cleared and the page reloads, so the guard sends the visitor to /login.
 */
export async function api<T>(path: string, options: Options = {}): Promise<T> {
  const { method = 'GET', body, query, auth = false } = options
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const token = auth ? session.token() : null
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
    if (response.status === 401 && token) {
      session.clear()
      window.location.reload()
    }
    const envelope = (payload ?? {}) as {
      error?: string
      code?: string
      errors?: Record<string, string>
    }
    throw new ApiError(
      envelope.error ?? 'Something went wrong. Please try again.',
      response.status,
      envelope.code ?? 'error',
      envelope.errors ?? {}
    )
  }
  return payload as T
}
