import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import type { Product } from '@shared/api/contract'
import { ProductImage } from '../../../shared/ui/ProductImage'
import { brandOf, money, releaseLabel } from '../../../shared/lib/format'
import { countdown, releaseTimes } from '../../../shared/lib/drops'
import { slotsLeft } from '@shared/vocabulary'

const INTERVAL_MS = 6000

/** Three slides that fade, with dots and no arrows; pauses on hover, focus and reduced motion. */
export function Carousel({ products, now }: { products: Product[]; now: number }) {
  const [index, setIndex] = useState(0)
  const [paused, setPaused] = useState(false)
  const count = products.length

  useEffect(() => {
    if (paused || count < 2 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), INTERVAL_MS)
    return () => clearInterval(timer)
  }, [paused, count])

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Latest drops"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="carousel__slides">
        {products.map((product, slide) => {
          const active = slide === index
          const left = slotsLeft(product)
          const target = product.productId ? `/product/${product.productId}` : '/shop'
          return (
            <article
              key={`${product.productId}-${slide}`}
              className={`carousel__slide ${active ? 'is-active' : ''}`}
              aria-roledescription="slide"
              aria-label={`${slide + 1} of ${count}`}
              aria-hidden={!active}
              inert={!active}
            >
              <div className="carousel__art">
                <ProductImage
                  src={product.productImage}
                  alt={product.productTitle}
                  eager={slide === 0}
                />
              </div>
              <div className="carousel__copy">
                <p className="eyebrow">
                  {brandOf(product.tags)} ·{' '}
                  {releaseTimes(product)
                    ? `${releaseTimes(product)!.local} · ${releaseTimes(product)!.release}`
                    : releaseLabel(product.releaseAt)}
                </p>
                <h2>{product.productTitle}</h2>
                <p className="carousel__meta">
                  <strong>{money(product.price)}</strong> slot fee ·{' '}
                  {product.mode === 'draw'
                    ? `${product.totalStock} slots by draw`
                    : left > 0
                      ? `${left} of ${product.totalStock} left`
                      : 'Sold out'}
                  {countdown(product.releaseAt, now) ? (
                    <> · drops in {countdown(product.releaseAt, now)}</>
                  ) : null}
                </p>
                <Link to={target} className="btn btn--accent">
                  {left > 0 ? 'Secure a slot' : 'View drop'}
                </Link>
              </div>
            </article>
          )
        })}
      </div>
      {count > 1 ? (
        <div className="carousel__dots" role="group" aria-label="Choose slide">
          {products.map((product, slide) => (
            <button
              key={`${product.productId}-${slide}`}
              type="button"
              className={`carousel__dot ${slide === index ? 'is-active' : ''}`}
              aria-label={`Show slide ${slide + 1}: ${product.productTitle}`}
              aria-current={slide === index}
              onClick={() => setIndex(slide)}
            />
          ))}
        </div>
      ) : null}
    </section>
  )
}
