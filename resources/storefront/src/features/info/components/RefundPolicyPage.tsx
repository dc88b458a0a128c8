import { getConfig } from '../../../shared/config'
import { CARD_WORDS, ORDER_STATUS_LABELS } from '@shared/vocabulary'

export function RefundPolicyPage() {
  const { supportEmail } = getConfig()
  return (
    <div className="container narrow prose-page">
      <header className="prose-page__head">
        <p className="eyebrow">Policies</p>
        <h1>Refund policy</h1>
      </header>
      <article className="prose card">
        <p>
          Dropslot sells slots: a service in which we check out a limited release for you on release
          day, using a profile (addresses and a card) that you keep with us. This policy explains
          what you pay, when, and what comes back to you.
        </p>
        <h2>The $1.00 card check</h2>
        <p>
          When you buy a slot we place a $1.00 authorization on the card on file in your account to
          verify it. This is a hold, not a charge. {CARD_WORDS.check}
        </p>
        <h2>The service fee is charged only on success</h2>
        <p>
          The price shown on a product is our service fee. It does not include the cost of the item.{' '}
          {CARD_WORDS.profile} We charge our fee to your card on file only after the retailer&apos;s
          confirmation e-mail shows that the order succeeded.
        </p>
        <h2>Failed orders</h2>
        <p>
          If the checkout fails (the item sold out, the retailer cancelled, your card was declined
          by the retailer), the order shows as {ORDER_STATUS_LABELS.fail} in Recent Orders and no
          service fee is charged: there is nothing to refund and nothing to claim. A fee that was
          charged and is given back later (the retailer cancelled a confirmed order) shows as
          Refunded.
        </p>
        <h2>Completed orders</h2>
        <p>
          Completed, shipped orders are not refunded: the service was delivered. Returns of the item
          itself follow the retailer&apos;s own return policy.
        </p>
        <h2>Promo codes</h2>
        <p>A promo code lowers the service fee by its percentage. It has no cash value.</p>
        <h2>Questions</h2>
        <p>
          Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> with your order number and
          we will answer within one business day.
        </p>
      </article>
    </div>
  )
}
