import { useSyncExternalStore } from 'react'

/** What the storefront keeps of a signed-in user (spec: "a stored user with a token"). */
export type StoredUser = {
  token: string
  email: string
  name: string
  uuid: string
}

const KEY = 'user'
const listeners = new Set<() => void>()
let current: StoredUser | null = read()

function read(): StoredUser | null {
  try {
    const raw = localStorage.getItem(KEY)
    if (!raw) return null
    const value = JSON.parse(raw) as Partial<StoredUser>
    return typeof value.token === 'string' && value.token ? (value as StoredUser) : null
  } catch {
    return null
  }
}

function emit() {
  for (const listener of listeners) listener()
}

export const session = {
  get(): StoredUser | null {
    return current
  },
  token(): string | null {
    return current?.token ?? null
  },
  set(user: StoredUser) {
    current = user
    localStorage.setItem(KEY, JSON.stringify(user))
    emit()
  },
  clear() {
    current = null
    localStorage.removeItem(KEY)
    emit()
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

// Another tab logging in or out changes this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === KEY) {
    current = read()
    emit()
  }
})

export function useSession(): StoredUser | null {
  return useSyncExternalStore(session.subscribe, session.get)
}
