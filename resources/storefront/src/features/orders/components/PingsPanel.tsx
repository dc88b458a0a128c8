import { useEffect, useState } from 'react'
import { getConfig } from '../../../shared/config'
import { Button } from '../../../shared/ui/Button'
import { Field } from '../../../shared/ui/Field'
import { applicationServerKey, pushSupported } from '../../../shared/lib/serviceWorker'
import { usePingActions, usePings } from '../api/usePings'

type BrowserState = 'checking' | 'on' | 'off' | 'unsupported'

/** How long the browser's push service may take to sign this browser up. */
const SUBSCRIBE_WAIT_MS = 20_000

/** The service worker's registration, or null when it is not there within a few seconds. */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const ready = navigator.serviceWorker.ready
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))
  return Promise.race([ready, timeout])
}

function subscribeError(error: unknown) {
  const text = error instanceof Error ? error.message : String(error)
  return `Your browser could not sign up with its push service (${text}). Please try again later.`
}

/**
 * Release-day pings on the orders page: push notifications in this browser (its service worker
 * shows them) and the customer's own Discord webhook. Each order's result (success, failure,
 * fee due, a card check to confirm, a draw result) reaches them once, besides the e-mail.
 */
export function PingsPanel() {
  const overview = usePings()
  const actions = usePingActions()
  const publicKey = getConfig().pushPublicKey
  const [checked, setBrowser] = useState<BrowserState>('checking')
  const supported = pushSupported() && Boolean(publicKey)
  const browser: BrowserState = supported ? checked : 'unsupported'
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)
  const [discordUrl, setDiscordUrl] = useState('')
  const [discordError, setDiscordError] = useState<string | null>(null)
  const [turningOn, setTurningOn] = useState(false)

  useEffect(() => {
    if (!supported) return
    let current = true
    void registration().then(async (ready) => {
      const subscription = ready ? await ready.pushManager.getSubscription() : null
      if (current) setBrowser(subscription ? 'on' : 'off')
    })
    return () => {
      current = false
    }
  }, [supported])

  const turnOn = async () => {
    setTurningOn(true)
    try {
      await signUp()
    } finally {
      setTurningOn(false)
    }
  }

  const signUp = async () => {
    setMessage(null)
    const permission = await Notification.requestPermission()
    if (permission !== 'granted') {
      setMessage({
        kind: 'error',
        text: 'Notifications are blocked for this site: allow them in your browser settings.',
      })
      return
    }
    const ready = await registration()
    if (!ready) {
      setMessage({ kind: 'error', text: 'The page is still starting up. Please try again.' })
      return
    }
    let subscription: PushSubscription
    try {
      // A browser that cannot reach its push service (offline, a blocked network) may never
      // answer: it is told after a while instead of waiting for ever.
      subscription = await Promise.race([
        ready.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: applicationServerKey(publicKey!),
        }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no answer from the push service')), SUBSCRIBE_WAIT_MS)
        ),
      ])
    } catch (error) {
      setMessage({ kind: 'error', text: subscribeError(error) })
      return
    }
    try {
      await actions.subscribe.run(subscription.toJSON())
      setBrowser('on')
      setMessage({ kind: 'ok', text: 'Notifications are on in this browser.' })
    } catch (error) {
      await subscription.unsubscribe().catch(() => {})
      setMessage({ kind: 'error', text: (error as Error).message })
    }
  }

  const turnOff = async () => {
    setMessage(null)
    const ready = await registration()
    const subscription = ready ? await ready.pushManager.getSubscription() : null
    if (subscription) {
      await actions.unsubscribe.run(subscription.endpoint).catch(() => {})
      await subscription.unsubscribe().catch(() => {})
    }
    setBrowser('off')
    setMessage({ kind: 'ok', text: 'Notifications are off in this browser.' })
  }

  const saveDiscord = async () => {
    setDiscordError(null)
    try {
      await actions.setDiscord.run(discordUrl)
      setDiscordUrl('')
    } catch (error) {
      setDiscordError((error as Error).message)
    }
  }

  const sendTest = async () => {
    setMessage(null)
    try {
      const report = await actions.test.run()
      const pushes = report.push.sent
      const parts = [`${pushes} browser${pushes === 1 ? '' : 's'}`]
      if (report.discord.sent) parts.push('Discord')
      setMessage({ kind: 'ok', text: `Test sent to ${parts.join(' and ')}.` })
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message })
    }
  }

  const data = overview.data
  const others = data ? data.push.subscriptions - (browser === 'on' ? 1 : 0) : 0
  const anyChannel = Boolean(data && (data.push.subscriptions > 0 || data.discord.configured))

  return (
    <section className="card pings" aria-labelledby="pings-title" data-testid="pings">
      <h2 id="pings-title">Release-day pings</h2>
      <p className="muted">
        Besides the e-mail, we tell you the moment your order succeeds or fails, when a fee is due,
        when your bank wants the $1.00 check confirmed, and how a draw went.
      </p>
      <div className="pings__row">
        <div>
          <h3>Notifications in this browser</h3>
          <p className="pings__state" data-state={browser}>
            {browser === 'unsupported'
              ? publicKey
                ? 'This browser cannot show notifications.'
                : 'Notifications are not set up on this server.'
              : browser === 'checking'
                ? 'Checking...'
                : browser === 'on'
                  ? 'On in this browser.'
                  : 'Off in this browser.'}
            {others > 0 ? ` On in ${others} other browser${others === 1 ? '' : 's'}.` : ''}
          </p>
        </div>
        {browser === 'off' ? (
          <Button onClick={turnOn} busy={turningOn} disabled={turningOn}>
            {turningOn ? 'Turning on...' : 'Turn on notifications'}
          </Button>
        ) : browser === 'on' ? (
          <Button variant="secondary" onClick={turnOff} busy={actions.unsubscribe.pending}>
            Turn off
          </Button>
        ) : null}
      </div>
      <div className="pings__row pings__row--discord">
        <div>
          <h3>Your Discord</h3>
          {data?.discord.configured ? (
            <p className="pings__state">Pinging your Discord ({data.discord.hint}).</p>
          ) : (
            <p className="pings__state">
              Paste a webhook of your own server (Server settings, Integrations, Webhooks).
            </p>
          )}
        </div>
        {data?.discord.configured ? (
          <Button
            variant="secondary"
            onClick={() => actions.clearDiscord.run()}
            busy={actions.clearDiscord.pending}
          >
            Remove
          </Button>
        ) : null}
      </div>
      {data && !data.discord.configured ? (
        <form
          className="pings__discord"
          onSubmit={(event) => {
            event.preventDefault()
            void saveDiscord()
          }}
        >
          <Field
            label="Discord webhook URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://discord.com/api/webhooks/..."
            value={discordUrl}
            onValue={setDiscordUrl}
            error={discordError}
          />
          <Button type="submit" variant="secondary" busy={actions.setDiscord.pending}>
            Save
          </Button>
        </form>
      ) : null}
      {anyChannel ? (
        <Button variant="ghost" onClick={sendTest} busy={actions.test.pending}>
          Send a test
        </Button>
      ) : null}
      {message ? (
        <p
          className={message.kind === 'ok' ? 'notice notice--success' : 'form-error'}
          role={message.kind === 'ok' ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      ) : null}
    </section>
  )
}
