import { Link } from 'react-router-dom'
import type { LineStatus, Product } from '@shared/api/contract'
import { beaconDelayNotice } from '@shared/beacon_rule'
import { Button } from '../../../shared/ui/Button'

const ordinal = (value: number) => {
  const tens = value % 100
  const suffix =
    tens >= 11 && tens <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[value % 10] ?? 'th')
  return `${value.toLocaleString('en-US')}${suffix}`
}

const clock = (seconds: number) => {
  const minutes = Math.floor(seconds / 60)
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`
}

const hourMinute = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })

/** The public randomness a line's places come from, behind Verify. */
function VerifyRound({ round }: { round: number }) {
  return (
    <details className="waiting-room__verify">
      <summary>Verify</summary>
      <p>Places come from drand quicknet round {round}.</p>
    </details>
  )
}

/** The waiting room of a first-come drop: join, wait for the opening, then move up the line. */
export function WaitingRoomPanel({
  product,
  status,
  error,
  joined,
  onJoin,
}: {
  product: Product
  status: LineStatus | null
  error: string | null
  joined: boolean
  onJoin: () => void
}) {
  const queue = product.queue!
  return (
    <div className="info-box waiting-room" aria-live="polite">
      <h2>Waiting room</h2>
      {!joined ? (
        <>
          <p>
            Slots go on sale{' '}
            {queue.opensAt
              ? new Date(queue.opensAt).toLocaleString(undefined, {
                  hour: 'numeric',
                  minute: '2-digit',
                  timeZoneName: 'short',
                })
              : 'soon'}
            . Everyone who joins in the {queue.minutes} minutes before (until a minute before the
            sale) gets a place drawn from public randomness nobody knows in advance, so arriving
            earlier gives no advantage. You need a card on file; one place per card on file and
            billing address.
          </p>
          <Button block onClick={onJoin}>
            Join the line
          </Button>
        </>
      ) : status?.state === 'waiting' ? (
        <>
          <p className="waiting-room__status">
            You are in. The sale opens in <strong>{clock(status.secondsLeft)}</strong>; your place
            is drawn then, from public randomness nobody knows in advance.
          </p>
          {status.round ? <VerifyRound round={status.round} /> : null}
        </>
      ) : status?.state === 'drawing' ? (
        <>
          <p className="waiting-room__status">
            The sale is open: your place is being drawn from public randomness.
          </p>
          {status.round ? <VerifyRound round={status.round} /> : null}
          {status.delay ? (
            <p className="notice" data-testid="line-delay">
              {beaconDelayNotice('line', hourMinute(status.delay.dueAt))}
            </p>
          ) : null}
        </>
      ) : status?.state === 'spent' ? (
        <p className="waiting-room__status">Your pass was used for your checkout.</p>
      ) : status?.state === 'expired' ? (
        <p className="waiting-room__status">
          Your turn has passed: a pass is valid for 10 minutes.
        </p>
      ) : status?.state === 'in_line' ? (
        <p className="waiting-room__status">
          You are <strong>{ordinal(status.place)}</strong> in line (
          {status.ahead.toLocaleString('en-US')} ahead of you; {status.letThroughPerMinute} let
          through each minute).
        </p>
      ) : status?.state === 'admitted' ? (
        <p className="waiting-room__status">
          It is your turn: check out before{' '}
          {new Date(status.expiresAt).toLocaleTimeString(undefined, {
            hour: 'numeric',
            minute: '2-digit',
          })}
          .
        </p>
      ) : null}
      {status && status.state !== 'waiting' && status.state !== 'drawing' ? (
        <p>
          <Link to={`/product/${product.productId}/line?member=${status.memberId}`}>
            Check your place
          </Link>
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
