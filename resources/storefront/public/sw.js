/*
 * Dropslot's service worker (served at /sw.js, scope /). It shows the pings of release day (web
 * push: an order secured, failed, a fee due, a card check to confirm, a draw result), tells the
 * open pages so they refresh, and opens the page a notification is about when it is tapped.
 * It caches nothing: the storefront works the same without it.
 */
const FALLBACK_URL = '/user/orders'

/** Only paths of this site are opened. */
function pathOf(value) {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')
    ? value
    : FALLBACK_URL
}

self.addEventListener('install', () => self.skipWaiting())

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('push', (event) => {
  let message = null
  try {
    message = event.data ? event.data.json() : null
  } catch {
    message = { title: 'Dropslot', body: event.data ? event.data.text() : '' }
  }
  const ping = {
    title: (message && message.title) || 'Dropslot',
    body: (message && message.body) || '',
    url: pathOf(message && message.url),
    tag: (message && message.tag) || undefined,
  }
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(ping.title, {
        body: ping.body,
        tag: ping.tag,
        renotify: Boolean(ping.tag),
        icon: '/favicon.svg',
        data: { url: ping.url },
      }),
      self.clients
        .matchAll({ type: 'window', includeUncontrolled: true })
        .then((windows) =>
          windows.forEach((client) => client.postMessage({ type: 'dropslot:ping', ping }))
        ),
    ])
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const target = new URL(
    pathOf(event.notification.data && event.notification.data.url),
    self.location.origin
  )
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).pathname === target.pathname && 'focus' in client) {
          return client.focus()
        }
      }
      return self.clients.openWindow(target.href)
    })
  )
})
