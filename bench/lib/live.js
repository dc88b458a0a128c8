import { randomUUID } from 'node:crypto'

/**
 * Follows one customer's live order channel as the storefront does: an event stream opened on
 * one web process (GET /__transmit/events) and subscribed with the customer's token. Collects
 * every announcement; `close()` ends the stream.
 */
export async function followOrders(port, customer) {
  const base = `http://127.0.0.1:${port}`
  const uid = randomUUID()
  const aborter = new AbortController()
  const response = await fetch(`${base}/__transmit/events?uid=${uid}`, {
    headers: { accept: 'text/event-stream' },
    signal: aborter.signal,
  })
  if (!response.ok) throw new Error(`event stream on ${port}: ${response.status}`)
  const updates = []
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffered += value
        let end
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          const data = buffered
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n')
          buffered = buffered.slice(end + 2)
          if (data) updates.push(JSON.parse(data).payload)
        }
      }
    } catch {
      // Ended by close().
    }
  })()
  const subscribed = await fetch(`${base}/__transmit/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'authorization': `Bearer ${customer.token}` },
    body: JSON.stringify({ uid, channel: `users/${customer.uuid}/orders` }),
  })
  await subscribed.text()
  if (subscribed.status !== 204) {
    aborter.abort()
    throw new Error(`subscribing on ${port}: ${subscribed.status}`)
  }
  return {
    updates,
    async close() {
      aborter.abort()
      await pump
    },
  }
}
