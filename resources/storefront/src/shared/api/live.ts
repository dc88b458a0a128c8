import { useEffect, useEffectEvent, useState } from 'react'
import { Transmit } from '@adonisjs/transmit-client'
import { session } from '../session/session'

/*
| Live updates from the server: one server-sent event stream (an EventSource on
| /__transmit/events) shared by every screen that follows a channel, opened with the first
| follower and closed with the last. Subscribing to a channel is an API call with the bearer
| token; the server refuses a channel that is not the signed-in customer's.
*/

let client: Transmit | null = null
let followers = 0
/** Whether the shared stream is open now (subscribing before it is would wait in a loop). */
let connected = false

function withToken(request: Request) {
  const token = session.token()
  if (token) request.headers.set('authorization', `Bearer ${token}`)
}

function openClient(): Transmit {
  if (!client) {
    connected = false
    client = new Transmit({
      baseUrl: window.location.origin,
      beforeSubscribe: withToken,
      beforeUnsubscribe: withToken,
    })
    client.on('connected', () => (connected = true))
    client.on('disconnected', () => (connected = false))
  }
  followers += 1
  return client
}

/** Closing the stream also ends its subscriptions on the server. */
function leaveClient() {
  followers -= 1
  if (followers > 0) return false
  client?.close()
  client = null
  connected = false
  return true
}

/**
 * Follows `channel` (null: nothing to follow) while the calling screen is mounted. `onChange`
 * runs on every message and again whenever the stream comes back after a drop (messages sent
 * meanwhile were lost). Returns whether the stream is connected and subscribed: when it is not
 * (no EventSource in this browser, refused, reconnecting, given up), the screen should poll.
 */
export function useLiveChannel(channel: string | null, onChange: () => void): boolean {
  const [live, setLive] = useState(false)
  const changed = useEffectEvent(onChange)

  useEffect(() => {
    if (!channel || typeof EventSource === 'undefined') return
    let active = true
    const transmit = openClient()
    const subscription = transmit.subscription(channel)
    const stopListening = subscription.onMessage(() => changed())
    const follow = async () => {
      await subscription.create()
      if (active) setLive(subscription.isCreated)
    }
    let missed = false
    const dropped = () => {
      missed = true
      setLive(false)
    }
    const restored = () => {
      if (missed) changed()
      missed = false
      void follow()
    }
    transmit.on('disconnected', dropped)
    transmit.on('connected', restored)
    // Otherwise `restored` subscribes once the stream opens.
    if (connected) void follow()

    return () => {
      active = false
      setLive(false)
      stopListening()
      transmit.off('disconnected', dropped)
      transmit.off('connected', restored)
      if (!leaveClient()) void subscription.delete()
    }
  }, [channel])

  return live
}
