import { Link } from 'react-router-dom'
import type { Product } from '@shared/api/contract'
import { beaconDelayNotice } from '@shared/beacon_rule'
import { useDrawProof } from '../../draw/api/useDrawProof'

const when = (value: string | null | undefined) =>
  value
    ? new Date(value).toLocaleString(undefined, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
      })
    : 'to be announced'

/** A draw's terms on its product page in plain words; the commitment behind Verify, then the proof. */
export function DrawPanel({ product }: { product: Product }) {
  const proof = useDrawProof(product.productId).data
  const drawn = proof?.status === 'drawn'
  const commitment = proof?.commitment
  return (
    <div className="info-box draw-box">
      <h2>{drawn ? 'This draw has run' : 'This release is a draw'}</h2>
      {proof?.delay ? (
        <p className="notice" role="status" data-testid="draw-delay">
          {beaconDelayNotice(
            'draw',
            new Date(proof.delay.dueAt).toLocaleTimeString(undefined, {
              hour: 'numeric',
              minute: '2-digit',
            })
          )}
        </p>
      ) : null}
      <ul>
        <li>
          Entries open {when(product.entryOpensAt)} and close {when(product.entryClosesAt)}.
          Arriving early gives no advantage: every entry has the same chance.
        </li>
        <li>
          One entry per person: per account, per card on file and per shipping address. Winners are
          checked out on release day; everyone else is never charged and the $1.00 check is
          released.
        </li>
        <li>
          The winners are drawn after entries close, from public randomness nobody knows in advance,
          not even us.
        </li>
      </ul>
      <details className="draw-box__verify">
        <summary>Verify</summary>
        <p>
          The randomness: drand quicknet round{' '}
          {commitment?.round ?? proof?.beacon?.round ?? '(fixed when entries open)'}, published
          after entries close.
        </p>
        <p>
          Commitment (fixed when entries opened: the seed&apos;s SHA-256, the slots, the window and
          the round): <code className="draw-box__hash">{commitment?.digest ?? 'not yet made'}</code>
        </p>
      </details>
      <Link className="btn btn--secondary" to={`/product/${product.productId}/draw`}>
        {drawn ? 'Check the draw yourself' : 'How the draw is checked'}
      </Link>
    </div>
  )
}
