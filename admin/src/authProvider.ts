import type { AuthProvider } from 'react-admin'
import { session } from './session'

export const NOT_ADMIN = 'dropslot.auth.not_admin'

async function postJson(url: string, body: unknown, token?: string) {
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

/**
 * Admins only: log in with the storefront's `POST /login`, then ask `GET /api/user/info` who
 * this is. Anyone but an admin is refused with a clear message and their fresh token is revoked
 * at once, so nothing is left behind in the browser or on the server.
 */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const { response, json } = await postJson('/login', { email: username, password })
    if (!response.ok || !json.token) {
      throw new Error(json.error ?? 'Email or password is incorrect.')
    }
    const token: string = json.token
    const infoResponse = await fetch('/api/user/info', {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    })
    const info = await infoResponse.json().catch(() => ({}))
    if (!infoResponse.ok || info.role !== 'admin') {
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
  },

  async logout() {
    const token = session.token()
    session.clear()
    if (token) await postJson('/api/logout', {}, token).catch(() => undefined)
  },

  async checkAuth() {
    if (!session.token()) throw new Error('ra.auth.auth_check_error')
  },

  async checkError(error: { status?: number }) {
    // 401: the token expired or was revoked. 403: this account is no longer an admin.
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
    return session.identity()?.role ?? null
  },
}
