import {
  QueryClient,
  useMutation as useTanstackMutation,
  useQuery as useTanstackQuery,
} from '@tanstack/react-query'

/*
| Reads and writes of the API through TanStack Query: one cache shared by every component, keyed
| by a string (`product:12`, `user:orders:<uuid>`), refreshed after a write by `invalidate`, and
| refetched on an interval where a screen follows something that changes on its own (an order's
| status). The hooks below keep the storefront's small vocabulary over it.
*/

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
})

/** Marks every entry whose key starts with the prefix as stale; mounted readers refetch. */
export function invalidate(prefix: string) {
  void queryClient.invalidateQueries({
    predicate: (query) => String(query.queryKey[0]).startsWith(prefix),
  })
}

/** Puts a fresh answer in the cache (a write call that returns the new state saves a refetch). */
export function setQueryData(key: string, data: unknown) {
  queryClient.setQueryData([key], data)
}

/** Forgets everything (log out: nothing of the previous user may show). */
export function clearQueries() {
  queryClient.clear()
}

export type Query<T> = {
  data: T | undefined
  error: Error | undefined
  loading: boolean
  /** True while a newer answer is on its way. */
  fetching: boolean
  refetch: () => Promise<void>
}

export type QueryOptions<T> = {
  /** Refetch on this interval while the screen is open (ms), or decide from the last answer. */
  refetchInterval?: number | false | ((data: T | undefined) => number | false)
}

export function useQuery<T>(
  key: string | null,
  fetcher: () => Promise<T>,
  options: QueryOptions<T> = {}
): Query<T> {
  const { refetchInterval } = options
  const query = useTanstackQuery({
    queryKey: [key],
    queryFn: fetcher,
    enabled: key !== null,
    refetchInterval:
      typeof refetchInterval === 'function'
        ? (current) => refetchInterval(current.state.data as T | undefined)
        : refetchInterval,
  })
  return {
    data: query.data,
    error: query.error ?? undefined,
    loading: key !== null && query.data === undefined && !query.error,
    fetching: key !== null && query.isFetching,
    refetch: async () => {
      await query.refetch()
    },
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
  const mutation = useTanstackMutation<R, Error, A>({ mutationFn: (args) => fn(...args) })
  return {
    run: (...args: A) => mutation.mutateAsync(args),
    pending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}
