import { randomUUID } from 'node:crypto'
import env from '#start/env'

export type StreamMessage = { channel: string; payload: any }

const baseUrl = () => `http://${env.get('HOST')}:${env.get('PORT')}`

/**
 * A server-sent event client over real HTTP, as a browser's EventSource would be: it opens
 * GET /__transmit/events under a fresh client id, collects every message, and subscribes that id
 * to channels with a bearer token (or none).
 */
export async function openEventStream() {
  const uid = randomUUID()
  const aborter = new AbortController()
  const response = await fetch(`${baseUrl()}/__transmit/events?uid=${uid}`, {
    headers: { accept: 'text/event-stream' },
    signal: aborter.signal,
  })
  if (!response.ok) {
    throw new Error(`The event stream answered ${response.status}: ${await response.text()}`)
  }
  const messages: StreamMessage[] = []
  const waiters: (() => void)[] = []
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffered += value
        let end: number
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          const frame = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n')
          if (data) messages.push(JSON.parse(data))
          waiters.splice(0).forEach((wake) => wake())
        }
      }
    } catch {
      // Aborted by close().
    }
  })()

  return {
    uid,
    response,
    messages,
    async subscribe(channel: string, token?: string) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (token) headers.authorization = `Bearer ${token}`
      const answer = await fetch(`${baseUrl()}/__transmit/subscribe`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ uid, channel }),
      })
      await answer.text()
      return answer.status
    },
    /** The first message on `channel` matching `test`, or an error after `timeoutMs`. */
    async next(channel: string, test: (payload: any) => boolean = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = messages.find(
          (message) => message.channel === channel && test(message.payload)
        )
        if (found) return found.payload
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`No message on ${channel} within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
    },
    async close() {
      aborter.abort()
      await pump
    },
  }
}
