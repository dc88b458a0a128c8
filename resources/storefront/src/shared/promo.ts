import { useSyncExternalStore } from 'react'

/** The promo code taken from `?promoCode=`, kept locally under the spec's "promoCode" key. */
const KEY = 'promoCode'
const listeners = new Set<() => void>()

const read = () => {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

export const promoStore = {
  get: read,
  set(code: string) {
    localStorage.setItem(KEY, code)
    listeners.forEach((listener) => listener())
  },
  clear() {
    localStorage.removeItem(KEY)
    listeners.forEach((listener) => listener())
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

/** Keeps the code of a link such as /product/3?promoCode=DROP10. */
export function capturePromoCode(search: string) {
  const code = new URLSearchParams(search).get('promoCode')?.trim()
  if (code && code.length <= 40) promoStore.set(code.toUpperCase())
}

export function useStoredPromoCode() {
  return useSyncExternalStore(promoStore.subscribe, promoStore.get)
}
