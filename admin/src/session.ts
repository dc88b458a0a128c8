/*
| The admin's session: the bearer token and who it belongs to, kept apart from the storefront's
| session (a different storage key) so signing in here never signs anyone in there.
*/
const TOKEN_KEY = 'dropslot.admin.token'
const IDENTITY_KEY = 'dropslot.admin.identity'

export type AdminIdentity = { id: string; fullName: string; email: string; role: string }

export const session = {
  token(): string | null {
    return localStorage.getItem(TOKEN_KEY)
  },
  identity(): AdminIdentity | null {
    const raw = localStorage.getItem(IDENTITY_KEY)
    if (!raw) return null
    try {
      return JSON.parse(raw) as AdminIdentity
    } catch {
      return null
    }
  },
  save(token: string, identity: AdminIdentity) {
    localStorage.setItem(TOKEN_KEY, token)
    localStorage.setItem(IDENTITY_KEY, JSON.stringify(identity))
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY)
    localStorage.removeItem(IDENTITY_KEY)
  },
}
