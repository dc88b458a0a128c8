import { Link } from 'react-router-dom'
import type { Product } from '../../../shared/api/types'

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

/** A draw's terms on its product page: the entry window, the commitment, then the proof. */
export function DrawPanel({ product }: { product: Product }) {
  const draw = product.draw
  return (
    <div className="info-box draw-box">
      <h2>{draw?.drawnAt ? 'This draw has run' : 'This release is a draw'}</h2>
      <ul>
        <li>
          Entries open {when(product.entryOpensAt)} and close {when(product.entryClosesAt)}.
          Arriving early gives no advantage: every entry has the same chance.
        </li>
        <li>
          One entry per person: per account, per card and per shipping address. Winners are checked
          out on release day; everyone else is never charged and the $1.00 check is released.
        </li>
        <li>
          Commitment (SHA-256 of the draw's secret seed, fixed before any entry):{' '}
          <code className="draw-box__hash">{draw?.commitment ?? 'not set'}</code>
        </li>
      </ul>
      <Link className="btn btn--secondary" to={`/product/${product.productId}/draw`}>
        {draw?.drawnAt ? 'Check the draw yourself' : 'How the draw is checked'}
      </Link>
    </div>
  )
}
