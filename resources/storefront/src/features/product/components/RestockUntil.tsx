import type { Product } from '@shared/api/contract'
import { releaseTimes } from '../../../shared/lib/drops'

/** The product's restock window, in the visitor's zone as the release time above it is. */
export function RestockUntil({
  product,
}: {
  product: Pick<Product, 'restockUntil' | 'releaseTimeZone'>
}) {
  const until = releaseTimes({
    releaseAt: product.restockUntil,
    releaseTimeZone: product.releaseTimeZone,
  })
  if (!until) return null
  return (
    <p className="product__zones">
      Restocks are tried until {until.local}: sold out at the drop is not the end.
    </p>
  )
}
