import type { ReactNode } from 'react'
import { useProducts } from '../api/useProducts'
import { FALLBACK_PRODUCTS } from '../data/fallbackProducts'
import { ProductImage } from '../ui/ProductImage'
import { money } from '../lib/format'
import { CARD_WORDS, slotsLeft } from '@shared/vocabulary'

/**
 * The sign-up steps' two-column screen: the form, and beside it the first available product
 * (or the built-in sample product when there is none).
 */
export function SplitLayout({
  children,
  step,
  eyebrow,
}: {
  children: ReactNode
  step?: string
  eyebrow?: string
}) {
  const products = useProducts()
  const product = products.data?.[0] ?? FALLBACK_PRODUCTS[0]
  return (
    <div className="split">
      <aside className="split__aside" aria-label="Featured drop">
        <div className="split__aside-inner">
          <p className="eyebrow eyebrow--light">{eyebrow ?? 'Next drop'}</p>
          <ProductImage
            src={product.productImage}
            alt={product.productTitle}
            className="split__image"
            eager
          />
          <h2>{product.productTitle}</h2>
          <p className="split__meta">
            Slot fee {money(product.price)} · {slotsLeft(product)} slots left
          </p>
          <ul className="split__points">
            <li>{CARD_WORDS.checkShort}</li>
            <li>Fee charged only when the retailer confirms</li>
            <li>Failed orders cost nothing</li>
          </ul>
        </div>
      </aside>
      <section className="split__main">
        <div className="split__form">
          {step ? <p className="step-pill">{step}</p> : null}
          {children}
        </div>
      </section>
    </div>
  )
}
