import webPush from 'web-push'
import pingsConfig from '#config/pings'
import dropslotConfig from '#config/dropslot'
import type { PingMessage } from '#notifications/services/notification_service'
import { pushEndpointProblem } from '#notifications/services/ping_channels'
import { pushKeysProblem } from '#notifications/services/push_keys'

/** What a push service or Discord answered, in the terms delivery acts on. */
export type SendOutcome =
  | { result: 'sent' }
  /**
   * The subscription or webhook no longer exists (404, 410; Discord 401/404), or the
   * subscription's keys cannot be encrypted for (`invalid`, stored before they were checked):
   * remove it.
   */
  | { result: 'gone'; detail: string; invalid?: true }
  /** Worth another try later (429, 5xx, network). */
  | { result: 'retry'; detail: string }
  /** Refused for good (another 4xx). */
  | { result: 'failed'; detail: string }

export type PushTarget = { endpoint: string; p256dh: string; auth: string }

function outcomeOf(status: number, gone: number[]): SendOutcome {
  if (status >= 200 && status < 300) return { result: 'sent' }
  const detail = `answered ${status}`
  if (gone.includes(status)) return { result: 'gone', detail }
  if (status === 429 || status >= 500) return { result: 'retry', detail }
  return { result: 'failed', detail }
}

async function post(url: string, init: RequestInit) {
  try {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(pingsConfig.timeoutMs),
    })
    await response.arrayBuffer().catch(() => null)
    return response.status
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    return { error: cause ?? (error as Error).name ?? 'network error' }
  }
}

/**
 * One web push message (RFC 8030), its payload encrypted for the subscription (RFC 8291,
 * aes128gcm) and signed with our VAPID key (RFC 8292) by the `web-push` package, sent with
 * fetch so the request and its timeout are ours.
 */
export async function sendWebPush(target: PushTarget, message: PingMessage): Promise<SendOutcome> {
  const vapid = pingsConfig.vapid
  if (!vapid) return { result: 'failed', detail: 'web push is not configured (no VAPID keys)' }
  const keysProblem = pushKeysProblem(target)
  if (keysProblem) {
    return { result: 'gone', detail: sentence(keysProblem.message), invalid: true }
  }
  // Never to an address we would not accept now (PUSH_SERVICE_HOSTS may have changed since).
  const endpointProblem = pushEndpointProblem(target.endpoint)
  if (endpointProblem) return { result: 'failed', detail: sentence(endpointProblem) }
  let details: ReturnType<typeof webPush.generateRequestDetails>
  try {
    details = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(message),
      {
        vapidDetails: vapid,
        TTL: pingsConfig.ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      }
    )
  } catch (error) {
    return { result: 'failed', detail: `not encrypted: ${(error as Error).message}` }
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch sets the length of the body itself.
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value)
  }
  const status = await post(details.endpoint, {
    method: details.method,
    headers,
    body: details.body as Buffer<ArrayBuffer>,
  })
  if (typeof status !== 'number') return { result: 'retry', detail: status.error }
  return outcomeOf(status, [404, 410])
}

/** One message to a customer's own Discord webhook (delivered by us, never by their browser). */
export async function sendDiscord(
  webhook: { id: string; token: string },
  message: PingMessage
): Promise<SendOutcome> {
  const link = `${dropslotConfig.appUrl}${message.url}`
  const status = await post(
    `${pingsConfig.discordApiUrl}/api/webhooks/${webhook.id}/${webhook.token}?wait=true`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'Dropslot',
        content: `**${message.title}**\n${message.body}\n${link}`.slice(0, 2000),
        allowed_mentions: { parse: [] },
      }),
    }
  )
  if (typeof status !== 'number') return { result: 'retry', detail: status.error }
  return outcomeOf(status, [401, 404])
}

/** A message of ours as a delivery's detail: "The key is ..." becomes "the key is ...". */
function sentence(message: string) {
  return message.charAt(0).toLowerCase() + message.slice(1).replace(/\.$/, '')
}
