import { Link } from 'react-router-dom'
import { getConfig } from '../../../shared/config'
import { useSession } from '../../../shared/session/session'
import { IconMail } from '../../../shared/ui/icons'
import { CARD_WORDS, ORDER_STATUS_LABELS } from '@shared/vocabulary'

export function HowItWorksPage() {
  const { supportEmail } = getConfig()
  const user = useSession()
  return (
    <div className="container prose-page">
      <header className="prose-page__head">
        <p className="eyebrow">How it works</p>
        <h1>From slot to sneakers, without the refresh button</h1>
        {!user ? (
          <div className="row-gap">
            <Link to="/login" className="btn btn--secondary">
              Sign In
            </Link>
            <Link to="/signup" className="btn btn--primary">
              Sign Up
            </Link>
          </div>
        ) : null}
      </header>
      <div className="info-sections">
        <section className="card info-section">
          <span className="step-card__num">01</span>
          <h2>Getting Started</h2>
          <p>
            Create an account, save your billing address and a card, and add one or more checkout
            profiles. Then pick a drop in the shop, choose your size and a profile, and press
            Checkout to buy a slot.
          </p>
          <p>
            You have only checked out once you have a valid order number and an account: the order
            shows under Recent Orders with its number as soon as the slot is secured.
          </p>
        </section>
        <section className="card info-section">
          <span className="step-card__num">02</span>
          <h2>Checkout Details</h2>
          <p>
            When you buy a slot we place a $1.00 check on the card on file in your account to verify
            it. {CARD_WORDS.check}
          </p>
          <p>
            The price shown is our service fee only; it does not include the cost of the item.{' '}
            {CARD_WORDS.profile} One slot per profile per drop.
          </p>
        </section>
        <section className="card info-section">
          <span className="step-card__num">03</span>
          <h2>Set for Success</h2>
          <p>
            You pay only for success. Our fee is charged after the retailer&apos;s confirmation
            e-mail proves your order went through, to your card on file. If the checkout fails, the
            order shows as {ORDER_STATUS_LABELS.fail} and nothing is charged.
          </p>
          <p>Completed, shipped orders are not refunded.</p>
        </section>
      </div>
      <section className="card contact-card">
        <div>
          <h2>Questions before a drop?</h2>
          <p className="muted">We answer within a day, faster on release mornings.</p>
        </div>
        <a className="btn btn--primary" href={`mailto:${supportEmail}`}>
          <IconMail width={18} height={18} /> Email Us
        </a>
      </section>
    </div>
  )
}
