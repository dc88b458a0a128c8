import { Link } from 'react-router-dom'
import type { Product } from '../api/types'
import { ProductImage } from './ProductImage'
import { brandOf, money, releaseLabel } from '../lib/format'

export function ProductCard({ product }: { product: Product }) {
  const left = Math.max(0, product.totalStock - product.stockTaken)
  const released = product.releaseAt ? new Date(product.releaseAt).getTime() < Date.now() : false
  const drawn = Boolean(product.draw?.drawnAt)
  const badge =
    product.mode === 'draw'
      ? drawn
        ? 'Drawn'
        : 'Draw'
      : left === 0
        ? 'Sold out'
        : released
          ? 'Released'
          : left <= product.totalStock * 0.1
            ? 'Almost gone'
            : null
  return (
    <Link to={`/product/${product.productId}`} className="product-card">
      <div className="product-card__art">
        <ProductImage src={product.productImage} alt="" />
        {badge ? (
          <span className={`badge ${left === 0 || drawn ? 'badge--muted' : 'badge--hot'}`}>
            {badge}
          </span>
        ) : null}
      </div>
      <div className="product-card__body">
        <p className="product-card__brand">{brandOf(product.tags)}</p>
        <h3 className="product-card__title">{product.productTitle}</h3>
        <p className="product-card__meta">
          <span>{money(product.price)} slot</span>
          <span>{releaseLabel(product.releaseAt)}</span>
        </p>
      </div>
    </Link>
  )
}
