import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { AccountLayout } from '../../../shared/layout/AccountLayout'
import { useProfiles } from '../../../shared/api/useProfiles'
import type { Order } from '@shared/api/contract'
import { PageLoading } from '../../../shared/ui/Spinner'
import { IconCheck, IconClose } from '../../../shared/ui/icons'
import { money } from '../../../shared/lib/format'
import { useOrders } from '../api/useOrders'
import { useProducts } from '../../../shared/api/useProducts'
import { ProductImage } from '../../../shared/ui/ProductImage'
import { releaseTimes } from '../../../shared/lib/drops'
import { ConfirmHoldButton, useHoldCheckReturn } from './HoldCheck'
import { feeStatusIsDue, orderStatusLabel } from '@shared/vocabulary'
import { PingsPanel } from './PingsPanel'
import { onPing } from '../../../shared/lib/serviceWorker'
import { invalidate } from '../../../shared/api/query'
import { ladderWords, priceCapWords, retailerChoiceWords } from '@shared/slot_choices'
import { canChangeChoices, ChangeSlotChoices } from './ChangeSlotChoices'

/** Stored status to the text customers see (the one table, `@shared/vocabulary`). */
export const statusLabel = orderStatusLabel

const HOLD_WORDS: Record<string, string> = {
  queued: 'Being placed',
  placing: 'Being placed',
  placed: 'Placed',
  released: 'Released',
  declined: 'Declined',
  skipped: 'Not placed',
  requires_action: 'Needs your confirmation',
}

/** The fee as a customer reads it: charged only on success, refunded if that is undone. */
function feeWords(fee: NonNullable<Order['fee']>) {
  if (fee.status === 'paid') return fee.refundedCents > 0 ? 'Partly refunded' : 'Charged'
  if (fee.status === 'refunded') return 'Refunded'
  if (fee.status === 'waived') return 'Waived'
  if (feeStatusIsDue(fee.status)) return 'Due: card declined'
  return 'Not charged'
}

/** Sizes upper-case; the style 'os' (one size) as OS. */
export const sizeLabel = (size: string) => (size.toLowerCase() === 'os' ? 'OS' : size.toUpperCase())

export const styleLabel = (style: string) => (style.toLowerCase() === 'os' ? 'OS' : style)

function StatusIndicator({ status }: { status: string }) {
  const value = status.toLowerCase()
  if (value === 'pending' || value === 'processing' || value === 'entered')
    return <span className="pulse" aria-hidden="true" />
  if (value === 'success')
    return <IconCheck className="status-icon status-icon--ok" aria-hidden="true" />
  return <IconClose className="status-icon status-icon--fail" aria-hidden="true" />
}

export function OrdersPage() {
  const orders = useOrders()
  const profiles = useProfiles()
  const catalogue = useProducts()
  // Back from the bank's 3-D Secure check of a $1.00 card check.
  const holdReturn = useHoldCheckReturn()
  const productOf = (order: Order) =>
    catalogue.data?.find((product) => product.productId === order.productId)

  useEffect(() => {
    // On the storefront a failed list is only logged, as the spec says.
    if (orders.error) console.error('Could not load orders', orders.error)
  }, [orders.error])

  // A ping shown by the service worker is about an order: the list is read again at once.
  useEffect(() => onPing(() => invalidate('user:orders:')), [])

  const profileName = (order: Order) =>
    profiles.data?.find((p) => p.profileId === order.profileId)?.profileName ??
    (profiles.data ? 'gone' : '…')

  const sorted = [...(orders.data ?? [])].sort(
    (a, b) => new Date(b.orderDate ?? 0).getTime() - new Date(a.orderDate ?? 0).getTime()
  )

  return (
    <AccountLayout title="Recent Orders">
      {holdReturn.status === 'confirming' ? (
        <p className="notice" role="status">
          Confirming your card check...
        </p>
      ) : holdReturn.status === 'placed' ? (
        <p className="notice notice--success" role="status">
          Thank you: your $1.00 card check is confirmed.
        </p>
      ) : holdReturn.status === 'failed' ? (
        <p className="form-error" role="alert">
          {holdReturn.message}
        </p>
      ) : null}
      {orders.loading ? (
        <PageLoading />
      ) : sorted.length === 0 ? (
        <div className="card empty-state">
          <h2>No orders yet</h2>
          <p className="muted">Secure a slot on an upcoming drop and it will show here.</p>
          <Link to="/shop" className="btn btn--primary">
            Browse drops
          </Link>
        </div>
      ) : (
        <ul
          className="orders"
          aria-label="Orders, newest first"
          data-live={orders.live ? 'connected' : 'polling'}
        >
          {sorted.map((order) => {
            const label =
              order.statusReason === 'draw_not_selected'
                ? 'Not selected'
                : statusLabel(order.status, order.fee)
            return (
              <li
                key={order.orderId}
                className="card order"
                data-status={order.status.toLowerCase()}
              >
                <div className="order__head">
                  {productOf(order) ? (
                    <span className="order__thumb">
                      <ProductImage src={productOf(order)!.productImage} alt="" sizes="64px" />
                    </span>
                  ) : null}
                  <h2 className="order__title">{order.productTitle}</h2>
                  <span className={`status status--${order.status.toLowerCase()}`}>
                    <StatusIndicator status={order.status} />
                    <span>{label}</span>
                  </span>
                </div>
                <dl className="order__facts">
                  <div>
                    <dt>Style</dt>
                    <dd>{styleLabel(order.style)}</dd>
                  </div>
                  <div>
                    <dt>Size</dt>
                    <dd>{sizeLabel(order.size)}</dd>
                  </div>
                  {order.sizes.length > 1 ? (
                    <div>
                      <dt>Sizes</dt>
                      <dd>{ladderWords(order.sizes)}</dd>
                    </div>
                  ) : null}
                  {order.retailers ? (
                    <div>
                      <dt>Retailers</dt>
                      <dd>{retailerChoiceWords(order.retailers)}</dd>
                    </div>
                  ) : null}
                  {order.maxItemPriceCents !== null ? (
                    <div>
                      <dt>Price cap</dt>
                      <dd>{priceCapWords(order.maxItemPriceCents)}</dd>
                    </div>
                  ) : null}
                  <div>
                    <dt>Profile</dt>
                    <dd>{profileName(order)}</dd>
                  </div>
                  <div>
                    <dt>Service fee</dt>
                    <dd>{money(order.price)}</dd>
                  </div>
                  <div>
                    <dt>Order #</dt>
                    <dd className="mono">{order.orderNumber ?? order.orderId}</dd>
                  </div>
                  {productOf(order)?.releaseAt ? (
                    <div>
                      <dt>Release</dt>
                      <dd>{releaseTimes(productOf(order)!)?.local}</dd>
                    </div>
                  ) : null}
                  {order.hold ? (
                    <div>
                      <dt>$1.00 check</dt>
                      <dd>{HOLD_WORDS[order.hold.status] ?? order.hold.status}</dd>
                    </div>
                  ) : null}
                  {order.fee ? (
                    <div>
                      <dt>Fee</dt>
                      <dd>{feeWords(order.fee)}</dd>
                    </div>
                  ) : null}
                  {order.status === 'success' && order.confirmationNumber ? (
                    <div>
                      <dt>Retailer confirmation</dt>
                      <dd className="mono">{order.confirmationNumber}</dd>
                    </div>
                  ) : null}
                  {order.drawEntryId ? (
                    <div>
                      <dt>Draw entry</dt>
                      <dd>
                        <Link to={`/product/${order.productId}/draw?entry=${order.drawEntryId}`}>
                          Verify your entry
                        </Link>
                      </dd>
                    </div>
                  ) : null}
                  <div>
                    <dt>Date</dt>
                    <dd>
                      {order.orderDate
                        ? new Date(order.orderDate).toLocaleDateString('en-US', {
                            month: 'short',
                            day: 'numeric',
                            year: 'numeric',
                          })
                        : '—'}
                    </dd>
                  </div>
                </dl>
                {order.outcomeWords ? <p className="order__outcome">{order.outcomeWords}</p> : null}
                {order.hold?.status === 'requires_action' ? (
                  <div className="order__action">
                    <ConfirmHoldButton orderId={order.orderId} confirmBy={order.hold.confirmBy} />
                  </div>
                ) : null}
                {canChangeChoices(order) ? (
                  <ChangeSlotChoices order={order} listed={productOf(order)} />
                ) : null}
                {['success', 'fail', 'retailer_cancelled'].includes(order.status.toLowerCase()) ? (
                  <p className="order__report">
                    <Link to={`/releases/${order.productId}`}>How this release went</Link>
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
      <PingsPanel />
    </AccountLayout>
  )
}
