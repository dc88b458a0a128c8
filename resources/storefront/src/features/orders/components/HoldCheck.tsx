import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { ApiError } from '../../../shared/api/client'
import { Button } from '../../../shared/ui/Button'
import { confirmHeldPayment } from '../../../shared/thirdparty/cardProvider'
import { useAuthenticateHold, useConfirmHold } from '../api/useHoldCheck'
import { challengeLink } from '../../../shared/lib/cardAuthentication'

const RETURN_PARAM = 'payment_intent'
const STILL_WAITING = 'Your bank is still waiting for you to confirm the card check.'

function messageOf(caught: unknown) {
  return caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.'
}

/**
 * A $1.00 card check the bank held back for 3-D Secure: the customer confirms it through the
 * bank's challenge (Stripe's overlay, or the sandbox's challenge page and back here).
 */
export function ConfirmHoldButton({
  orderId,
  confirmBy,
}: {
  orderId: string
  confirmBy?: string | null
}) {
  const authenticate = useAuthenticateHold()
  const confirm = useConfirmHold()
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  async function start() {
    setBusy(true)
    setMessage(null)
    try {
      const action = await authenticate.run(orderId)
      if (
        action.clientSecret &&
        action.paymentMethodId &&
        (await confirmHeldPayment(action.clientSecret, action.paymentMethodId))
      ) {
        if (!(await confirm.run(orderId))) setMessage(STILL_WAITING)
        return
      }
      if (action.challengeUrl) {
        const back = `/user/orders?order=${encodeURIComponent(orderId)}`
        window.location.assign(challengeLink(action.challengeUrl, back))
        return
      }
      setMessage('We cannot show your bank’s check right now. Please try again later.')
    } catch (caught) {
      setMessage(messageOf(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack">
      <p>
        Your bank asks you to confirm the $1.00 card check
        {confirmBy
          ? ` by ${new Date(confirmBy).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })}`
          : ''}
        , or the order is cancelled.
      </p>
      <Button onClick={() => void start()} disabled={busy}>
        {busy ? 'Opening...' : 'Confirm card check'}
      </Button>
      {message ? (
        <p className="form-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
}

export type HoldReturn =
  { status: 'idle' | 'confirming' } | { status: 'placed' } | { status: 'failed'; message: string }

/** Back from the challenge page (`?order=...&payment_intent=...`): the outcome, asked once. */
export function useHoldCheckReturn(): HoldReturn {
  const location = useLocation()
  const navigate = useNavigate()
  const confirm = useConfirmHold()
  const params = new URLSearchParams(location.search)
  const orderId = params.get('order')
  const returned = params.get(RETURN_PARAM)
  const [state, setState] = useState<HoldReturn>({
    status: orderId && returned ? 'confirming' : 'idle',
  })
  const started = useRef<string | null>(null)

  useEffect(() => {
    if (!orderId || !returned || started.current === returned) return
    started.current = returned
    confirm
      .run(orderId)
      .then((placed) =>
        setState(placed ? { status: 'placed' } : { status: 'failed', message: STILL_WAITING })
      )
      .catch((caught: unknown) => setState({ status: 'failed', message: messageOf(caught) }))
      .finally(() => void navigate(location.pathname, { replace: true }))
  }, [orderId, returned, confirm, navigate, location.pathname])

  return state
}
