import { getConfig } from '../config'
import { loadScript } from './loadScript'

type IntercomFn = ((command: string, options?: object) => void) & { q?: unknown[] }
type ChatWindow = Window & { Intercom?: IntercomFn; intercomSettings?: object }

let booted = false

/** Boots the Intercom chat-support widget when an app id is configured (idle time, never blocking). */
export function bootChatWidget() {
  const appId = getConfig().integrations.chatWidgetId
  if (!appId || booted) return
  booted = true
  const w = window as ChatWindow
  w.intercomSettings = { app_id: appId }
  // The vendor's documented stub: calls made before the script arrives are queued.
  const queue: unknown[] = []
  const stub = ((...args: unknown[]) => queue.push(args)) as IntercomFn
  stub.q = queue
  w.Intercom = w.Intercom ?? stub
  w.Intercom('boot', { app_id: appId })
  void loadScript(`https://widget.intercom.io/widget/${encodeURIComponent(appId)}`).catch(() => {})
}

/** Spec: the chat-support widget is updated on each route change. */
export function notifyChatRouteChange() {
  const w = window as ChatWindow
  if (booted && typeof w.Intercom === 'function') {
    w.Intercom('update', { last_request_at: Math.floor(Date.now() / 1000) })
  }
}
