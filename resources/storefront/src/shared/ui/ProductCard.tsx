import { Link } from 'react-router-dom'
import type { Product } from '@shared/api/contract'
import { ProductImage } from './ProductImage'
import { brandOf, money } from '../lib/format'
import { DROP_STATE_LABELS, countdown, dropState, releaseTimes } from '../lib/drops'
import { slotsLeft } from '@shared/vocabulary'

/** One drop's card, drawn at the page's `now` (the clock the page also sorts with). */
export function ProductCard({ product, now }: { product: Product; now: number }) {
  const state = dropState(product, now)
  const left = slotsLeft(product)
  const times = releaseTimes(product)
  const remaining = countdown(product.releaseAt, now)
  const label =
    product.mode === 'draw' && state !== 'released'
      ? `Draw · ${DROP_STATE_LABELS[state]}`
      : DROP_STATE_LABELS[state]
  const muted = state === 'sold-out' || state === 'released' || state === 'closed'
  return (
    <Link to={`/product/${product.productId}`} className="product-card" data-state={state}>
      <div className="product-card__art">
        <ProductImage src={product.productImage} alt="" lazy={false} />
        <span className={`badge ${muted ? 'badge--muted' : 'badge--hot'}`}>{label}</span>
      </div>
      <div className="product-card__body">
        <p className="product-card__brand">{brandOf(product.tags)}</p>
        <h3 className="product-card__title">{product.productTitle}</h3>
        <p className="product-card__meta">
          <span>{money(product.price)} slot</span>
          <span>
            {product.mode === 'draw'
              ? `${product.totalStock} slots by draw`
              : `${left} of ${product.totalStock} left`}
          </span>
        </p>
        {times ? (
          <p className="product-card__time">
            {remaining ? (
              <span className="product-card__countdown" aria-label={`Releases in ${remaining}`}>
                {remaining}
              </span>
            ) : null}
            <span>{state === 'released' ? `Released ${times.local}` : times.local}</span>
            <span className="product-card__zone">{times.release}</span>
          </p>
        ) : (
          <p className="product-card__time">Date to be announced</p>
        )}
      </div>
    </Link>
  )
}
