import type { AuthProvider } from 'react-admin'
import { isStaffRole } from '@shared/staff_roles'
import { session } from './session'

export const NOT_ADMIN = 'dropslot.auth.not_admin'
export const FACTOR_REQUIRED = 'Enter the code from your authenticator to finish signing in.'

export async function postJson(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Accept': 'application/json',
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  })
  const json = await response.json().catch(() => ({}))
  return { response, json }
}

/** A staff sign-in that waits for its second factor: the password-only token and what to ask. */
export type PendingSignIn = {
  token: string
  email: string
  secondFactor: 'required' | 'enrol'
  methods: string[]
}

/**
 * The password step: `POST /login`. A staff account gets a token that opens only the factor
 * routes (`secondFactor` says whether to present a code or add an authenticator first); anyone
 * else gets a token straight away (`done`), still checked by `login({ token })`.
 */
export async function passwordStep(
  email: string,
  password: string
): Promise<{ pending: PendingSignIn } | { token: string }> {
  const { response, json } = await postJson('/login', { email, password })
  if (!response.ok || !json.token) {
    throw new Error(json.error ?? 'Email or password is incorrect.')
  }
  if (json.secondFactor === 'required' || json.secondFactor === 'enrol') {
    const methods = Array.isArray(json.methods) ? json.methods : ['totp']
    return { pending: { token: json.token, email, secondFactor: json.secondFactor, methods } }
  }
  return { token: json.token }
}

/**
 * Staff only: ask `GET /api/user/info` who a full token belongs to. Anyone but staff is
 * refused with a clear message and their token is revoked at once, so nothing is left behind in
 * the browser or on the server.
 */
async function finishSignIn(token: string) {
  const infoResponse = await fetch('/api/user/info', {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
  })
  const info = await infoResponse.json().catch(() => ({}))
  if (!infoResponse.ok || !isStaffRole(info.role)) {
    await postJson('/api/logout', {}, token).catch(() => undefined)
    session.clear()
    throw new Error(NOT_ADMIN)
  }
  session.save(token, {
    id: info.uuid,
    fullName: info.name || info.email,
    email: info.email,
    role: info.role,
  })
}

/**
 * Signs in with `{ token }` once the sign-in page has completed the second factor (or the
 * account needs none), or with `{ username, password }` for an account without one.
 */
export const authProvider: AuthProvider = {
  async login(params: { username?: string; password?: string; token?: string }) {
    if (params.token) return finishSignIn(params.token)
    const step = await passwordStep(params.username ?? '', params.password ?? '')
    if ('pending' in step) {
      await postJson('/api/session/logout', {}, step.pending.token).catch(() => undefined)
      throw new Error(FACTOR_REQUIRED)
    }
    return finishSignIn(step.token)
  },

  async logout() {
    const token = session.token()
    session.clear()
    if (token) await postJson('/api/logout', {}, token).catch(() => undefined)
  },

  async checkAuth() {
    if (!session.token()) throw new Error('ra.auth.auth_check_error')
  },

  async checkError(error: { status?: number; body?: { code?: string } }) {
    // A token still waiting for its second factor: back to the sign-in page.
    if (error?.status === 403 && error.body?.code === 'second_factor_required') {
      session.clear()
      throw new Error(FACTOR_REQUIRED)
    }
    // A refusal of one action (the role's, or a step-up cancelled) is shown where it happened.
    if (error?.body?.code === 'forbidden_for_role' || error?.body?.code === 'step_up_required') {
      return
    }
    // 401: the token expired, idled 15 minutes or was ended. 403: no longer staff.
    if (error?.status === 401 || error?.status === 403) {
      session.clear()
      throw new Error(error.status === 403 ? NOT_ADMIN : 'ra.auth.auth_check_error')
    }
  },

  async getIdentity() {
    const identity = session.identity()
    if (!identity) throw new Error('ra.auth.auth_check_error')
    return identity
  },

  async getPermissions() {
    // Signed out, the answer comes after the logout's redirect, not at once: react-admin's logout
    // navigates to the sign-in page, then clears its store, after a zero-delay timer; a
    // permissions query that settles before then mounts the logout again, and the console
    // pushed thousands of redirects (seconds of a frozen page) before the sign-in form showed
    // (react-admin issue 10764). Signed in, it answers at once.
    if (!session.token()) await new Promise((resolve) => setTimeout(resolve, 50))
    return session.identity()?.role ?? null
  },
}
