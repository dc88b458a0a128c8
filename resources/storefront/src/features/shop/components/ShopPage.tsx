import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { useProducts } from '../../../shared/api/useProducts'
import { useSession } from '../../../shared/session/session'
import { ProductCard } from '../../../shared/ui/ProductCard'
import { SelectField } from '../../../shared/ui/Field'
import { BRANDS } from '@shared/vocabulary'
import { sortDrops } from '../../../shared/lib/drops'
import { useNow } from '../../../shared/lib/useNow'

const BRAND_FILTERS = [{ value: 'all', label: 'All' }, ...BRANDS]

const REVEAL_MS = 500

/** A product shows when the filter is all or its tags contain the selected brand. */
export const matchesBrand = (tags: string, brand: string) =>
  brand === 'all' ||
  tags
    .toLowerCase()
    .split(',')
    .map((tag) => tag.trim())
    .includes(brand)

export function ShopPage() {
  const products = useProducts()
  const user = useSession()
  const [brand, setBrand] = useState('all')
  const [revealed, setRevealed] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => setRevealed(true), REVEAL_MS)
    return () => clearTimeout(timer)
  }, [])

  useEffect(() => {
    // The storefront's shop shows no message when the list fails; the failure is only logged.
    if (products.error) console.error('Could not load products', products.error)
  }, [products.error])

  const now = useNow()
  const visible = sortDrops(products.data ?? [], now).filter((product) =>
    matchesBrand(product.tags, brand)
  )

  return (
    <div className="container shop">
      <div className="page-heading">
        <div>
          <p className="eyebrow">Open and upcoming drops first, soonest first</p>
          <h1>Shop the drops</h1>
        </div>
        {user ? (
          <Link to="/user/account" className="btn btn--secondary btn--sm">
            Account
          </Link>
        ) : (
          <Link to="/signup" className="btn btn--primary btn--sm">
            Signup
          </Link>
        )}
      </div>
      <div className="shop__layout">
        <nav className="brand-filter" aria-label="Filter by brand">
          <h2 className="brand-filter__title">Brands</h2>
          <ul>
            {BRAND_FILTERS.map((option) => (
              <li key={option.value}>
                <button
                  type="button"
                  className={`brand-filter__item ${brand === option.value ? 'is-active' : ''}`}
                  aria-pressed={brand === option.value}
                  onClick={() => setBrand(option.value)}
                >
                  {option.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="brand-select">
          <SelectField label="Brand" options={BRAND_FILTERS} value={brand} onValue={setBrand} />
        </div>
        <section aria-label="Products" aria-busy={!revealed || products.loading}>
          <p className="sr-only" role="status">
            {revealed ? `${visible.length} products` : ''}
          </p>
          <div
            className={`product-grid ${revealed && products.data ? 'is-revealed' : ''}`}
            data-testid="product-grid"
          >
            {visible.map((product) => (
              <ProductCard key={product.productId} product={product} now={now} />
            ))}
          </div>
          {revealed && products.data && visible.length === 0 ? (
            <p className="empty">No drops from this brand right now. Check back soon.</p>
          ) : null}
        </section>
      </div>
    </div>
  )
}
