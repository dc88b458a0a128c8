import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'

/**
 * A small read cache for API calls: one entry per key, shared by every component that reads it,
 * refreshed on demand (invalidate) after a write. Enough for a storefront; no extra library.
 */
type Entry = { data?: unknown; error?: Error; promise?: Promise<void>; stale: boolean }

const entries = new Map<string, Entry>()
const listeners = new Map<string, Set<() => void>>()
const EMPTY: Entry = { stale: true }

function notify(key: string) {
  for (const listener of listeners.get(key) ?? []) listener()
}

function load(key: string, fetcher: () => Promise<unknown>) {
  const entry = entries.get(key) ?? { stale: true }
  if (entry.promise) return entry.promise
  const promise = fetcher().then(
    (data) => {
      entries.set(key, { data, stale: false })
      notify(key)
    },
    (error: Error) => {
      entries.set(key, { data: entry.data, error, stale: false })
      notify(key)
    }
  )
  entries.set(key, { ...entry, promise })
  notify(key)
  return promise
}

/** Marks every entry whose key starts with the prefix as stale; mounted readers refetch. */
export function invalidate(prefix: string) {
  for (const [key, entry] of entries) {
    if (key.startsWith(prefix)) {
      entries.set(key, { ...entry, stale: true })
      notify(key)
    }
  }
}

/** Puts a fresh answer in the cache (a write call that returns the new state saves a refetch). */
export function setQueryData(key: string, data: unknown) {
  entries.set(key, { data, stale: false })
  notify(key)
}

/** Forgets everything (log out: nothing of the previous user may show). */
export function clearQueries() {
  const keys = [...entries.keys()]
  entries.clear()
  keys.forEach(notify)
}

export type Query<T> = {
  data: T | undefined
  error: Error | undefined
  loading: boolean
  /** True while the answer shown is stale and a newer one is on its way. */
  fetching: boolean
  refetch: () => Promise<void>
}

export function useQuery<T>(key: string | null, fetcher: () => Promise<T>): Query<T> {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!key) return () => {}
      const set = listeners.get(key) ?? new Set()
      set.add(listener)
      listeners.set(key, set)
      return () => set.delete(listener)
    },
    [key]
  )
  const entry = useSyncExternalStore(subscribe, () => (key ? (entries.get(key) ?? EMPTY) : EMPTY))

  useEffect(() => {
    if (key && entry.stale && !entry.promise) void load(key, fetcher)
    // The fetcher is tied to the key; a new fetcher for the same key is the same request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, entry])

  const refetch = useCallback(async () => {
    if (!key) return
    entries.set(key, { ...(entries.get(key) ?? {}), stale: true, promise: undefined })
    await load(key, fetcher)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  return {
    data: entry.data as T | undefined,
    error: entry.error,
    loading: Boolean(key) && entry.data === undefined && !entry.error,
    fetching: Boolean(key) && (entry.stale || Boolean(entry.promise)),
    refetch,
  }
}

export type Mutation<A extends unknown[], R> = {
  run: (...args: A) => Promise<R>
  pending: boolean
  error: Error | null
  reset: () => void
}

/** A write call with its pending flag and last error; `run` rethrows so callers can branch. */
export function useMutation<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>
): Mutation<A, R> {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<Error | null>(null)
  const run = useCallback(
    async (...args: A) => {
      setPending(true)
      setError(null)
      try {
        return await fn(...args)
      } catch (caught) {
        setError(caught as Error)
        throw caught
      } finally {
        setPending(false)
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    []
  )
  return { run, pending, error, reset: () => setError(null) }
}
