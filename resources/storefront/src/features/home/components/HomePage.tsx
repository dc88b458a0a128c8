import { Link, useLocation } from 'react-router-dom'
import { useProducts } from '../../../shared/api/useProducts'
import { FALLBACK_PRODUCTS } from '../../../shared/data/fallbackProducts'
import { SocialTimeline } from '../../../shared/thirdparty/SocialTimeline'
import { IconBolt, IconShield, IconClock } from '../../../shared/ui/icons'
import { useSession } from '../../../shared/session/session'
import { Carousel } from './Carousel'
import { Newsletter } from './Newsletter'
import { dropState, sortDrops } from '../../../shared/lib/drops'
import { useNow } from '../../../shared/lib/useNow'
import { CARD_WORDS } from '@shared/vocabulary'

const QUOTES = [
  {
    name: 'Maya R.',
    handle: '@mayakicks',
    text: 'Got the Chicagos on release morning while I was in class. Fee only hit after the confirmation email.',
  },
  {
    name: 'Dev P.',
    handle: '@devcops',
    text: 'Two profiles, two sizes, zero refresh-spamming. The miss read ‘Not secured: sold out. Nothing charged’ and cost me nothing.',
  },
  {
    name: 'Luis G.',
    handle: '@lg.grails',
    text: 'Set it up once on Sunday, had a Kith box logo in my inbox on Monday.',
  },
]

export function HomePage() {
  const products = useProducts()
  const user = useSession()
  // A page that signs the customer out (account deletion) says what happened here.
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  // The next three drops that can still be bought or entered, soonest first.
  const now = useNow()
  const latest = sortDrops(products.data ?? [], now)
    .filter((product) => ['open', 'upcoming'].includes(dropState(product, now)))
    .slice(0, 3)
  const slides = latest.length ? latest : products.loading ? [] : FALLBACK_PRODUCTS

  return (
    <>
      {notice ? (
        <div className="notice" role="status">
          <div className="container">{notice}</div>
        </div>
      ) : null}
      <section className="hero">
        <div className="container hero__grid">
          <div className="hero__copy">
            <p className="eyebrow">Release-day checkout service</p>
            <h1>
              Your slot for every drop. <span className="highlight">Pay only if it lands.</span>
            </h1>
            <p className="lead">
              Pick a release, choose your size and a saved profile. On release day we check it out
              for you. The service fee is charged only after the retailer confirms your order.
            </p>
            <div className="row-gap">
              <Link to="/shop" className="btn btn--primary btn--lg">
                Browse drops
              </Link>
              {user ? (
                <Link to="/user/orders" className="btn btn--secondary btn--lg">
                  My orders
                </Link>
              ) : (
                <Link to="/signup" className="btn btn--secondary btn--lg">
                  Create account
                </Link>
              )}
            </div>
            <ul className="hero__facts">
              <li>
                <IconShield /> {CARD_WORDS.checkShort}
              </li>
              <li>
                <IconBolt /> Fee only on success
              </li>
            </ul>
          </div>
          <div className="hero__stage">
            {slides.length ? (
              <Carousel products={slides} now={now} />
            ) : (
              <div className="carousel carousel--loading" aria-hidden="true" />
            )}
          </div>
        </div>
      </section>

      <section className="container section">
        <div className="section__head">
          <p className="eyebrow">How it works</p>
          <h2>Three steps, then we take it from here</h2>
        </div>
        <ol className="steps">
          <li className="step-card">
            <span className="step-card__num">01</span>
            <h3>Save a profile</h3>
            <p>Shipping address, billing address and a card. Keep as many as you like.</p>
          </li>
          <li className="step-card">
            <span className="step-card__num">02</span>
            <h3>Secure a slot</h3>
            <p>Choose the size and profile. We verify your card on file with a $1.00 check.</p>
          </li>
          <li className="step-card">
            <span className="step-card__num">03</span>
            <h3>We check out for you</h3>
            <p>
              <IconClock width={16} height={16} /> On release day. You pay our fee only when the
              retailer confirms.
            </p>
          </li>
        </ol>
      </section>

      <section className="container section community">
        <div className="section__head">
          <p className="eyebrow">Community</p>
          <h2>Fresh from release day</h2>
        </div>
        <SocialTimeline
          height={420}
          fallback={
            <div className="quotes">
              {QUOTES.map((quote) => (
                <figure key={quote.handle} className="quote-card">
                  <blockquote>“{quote.text}”</blockquote>
                  <figcaption>
                    <strong>{quote.name}</strong> <span>{quote.handle}</span>
                  </figcaption>
                </figure>
              ))}
            </div>
          }
        />
      </section>

      <div className="container section">
        <Newsletter />
      </div>
    </>
  )
}
