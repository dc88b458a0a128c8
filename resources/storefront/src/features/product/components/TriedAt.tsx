import type { ProductRetailer } from '@shared/api/contract'

/** Where the slot will be tried on release day, in order: "Tried at: Kith, New Balance". */
export function TriedAt({ retailers }: { retailers: ProductRetailer[] }) {
  if (retailers.length === 0) return null
  return (
    <p className="product__zones">
      Tried at: {retailers.map((retailer) => retailer.name).join(', ')}
    </p>
  )
}
