/*
| The storefront's service worker (public/sw.js, scope /): it shows release-day pings (web push)
| and opens the page a notification is about. Registered once the page has rendered; a browser
| without service workers simply gets no pings.
*/

export function serviceWorkerSupported() {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator
}

export function pushSupported() {
  return serviceWorkerSupported() && 'PushManager' in window && 'Notification' in window
}

export function registerServiceWorker() {
  if (!serviceWorkerSupported()) return
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error) => {
    console.warn('The service worker could not be registered', error)
  })
}

/** The VAPID key as the Push API takes it (base64url to bytes). */
export function applicationServerKey(base64url: string) {
  const padded = `${base64url}${'='.repeat((4 - (base64url.length % 4)) % 4)}`
  const raw = atob(padded.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(raw.length)
  for (let index = 0; index < raw.length; index++) bytes[index] = raw.charCodeAt(index)
  return bytes
}

/** Calls `listener` with each ping the service worker shows while a page is open. */
export function onPing(listener: (ping: { title: string; body: string; url: string }) => void) {
  if (!serviceWorkerSupported()) return () => {}
  const handler = (event: MessageEvent) => {
    if (event.data?.type === 'dropslot:ping') listener(event.data.ping)
  }
  navigator.serviceWorker.addEventListener('message', handler)
  return () => navigator.serviceWorker.removeEventListener('message', handler)
}
