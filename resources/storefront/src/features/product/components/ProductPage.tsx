import { useEffect, useId, useRef, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { withReturnPath } from '../../../shared/lib/returnTo'
import { useProduct } from '../../../shared/api/useProduct'
import { useProducts } from '../../../shared/api/useProducts'
import { useUserInfo } from '../../../shared/api/useUserInfo'
import { useProfiles } from '../../../shared/api/useProfiles'
import { ApiError } from '../../../shared/api/client'
import { ProductImage } from '../../../shared/ui/ProductImage'
import { ProductCard } from '../../../shared/ui/ProductCard'
import { Field, SelectField } from '../../../shared/ui/Field'
import { PageLoading } from '../../../shared/ui/Spinner'
import { IconChevron } from '../../../shared/ui/icons'
import { brandOf, money, releaseLabel } from '../../../shared/lib/format'
import { centsOfDollars, formatPrice, priceAfterPromo } from '@shared/pricing'
import { promoStore } from '../../../shared/promo'
import { BRAND_LABELS } from '../../../shared/lib/cards'
import { trackPurchase } from '../../../shared/thirdparty/analytics'
import { useCheckout } from '../api/useCheckout'
import { usePromoLookup } from '../api/usePromoLookup'
import { CheckoutButton, type CheckoutPhase } from './CheckoutButton'
import { DrawPanel } from './DrawPanel'
import { releaseTimes } from '../../../shared/lib/drops'
import { WaitingRoomPanel } from './WaitingRoomPanel'
import { TriedAt } from './TriedAt'
import { RestockUntil } from './RestockUntil'
import { useWaitingRoom } from '../api/useWaitingRoom'
import { useNow } from '../../../shared/lib/useNow'
import { CARD_WORDS, cardOnFileName, confirmWords, slotsLeft } from '@shared/vocabulary'
import { MoreChances } from './MoreChances'
import { useMoreChances } from './useMoreChances'

const AFTER_SUCCESS_MS = 2000
const AFTER_ERROR_MS = 3000

/** Another product starts afresh: no size, style, step or problem carried over. */
export function ProductPage() {
  const { id } = useParams()
  return <ProductScreen key={id} id={id} />
}

function ProductScreen({ id }: { id: string | undefined }) {
  const navigate = useNavigate()
  const product = useProduct(id)
  const hasWaitingRoom = Boolean(product.data?.queue)
  const line = useWaitingRoom(product.data?.productId, hasWaitingRoom)
  const catalogue = useProducts()
  const info = useUserInfo()
  const profiles = useProfiles()
  const checkout = useCheckout()
  const { code: promoCode, promo, failed: promoFailed } = usePromoLookup()

  const [size, setSize] = useState('')
  const [style, setStyle] = useState('')
  const [pickedProfileId, setProfileId] = useState('')
  const [phase, setPhase] = useState<CheckoutPhase>('idle')
  const [problem, setProblem] = useState<string | null>(null)
  const [cardCode, setCardCode] = useState('')
  const [cardCodeAsked, setCardCodeAsked] = useState(false)
  const [cardCodeError, setCardCodeError] = useState<string | null>(null)
  const [promoOpen, setPromoOpen] = useState(false)
  const [promoInput, setPromoInput] = useState('')
  const chances = useMoreChances(product.data, size)
  const timers = useRef<number[]>([])
  const promoId = useId()

  useEffect(() => () => timers.current.forEach(clearTimeout), [])
  const later = (fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms))
  }

  // A user without a billing address or a card on file finishes those steps first.
  useEffect(() => {
    const user = info.data
    if (!user || info.fetching) return
    // Back to this product once those steps are done.
    const here = `/product/${id}`
    if (!user.billingAddress?.line1) {
      void navigate(withReturnPath('/addBilling', here), { replace: true })
    } else if (!user.billingLast4)
      void navigate(withReturnPath('/addCard', here), { replace: true })
  }, [info.data, info.fetching, navigate, id])

  // The first profile is preselected.
  const profileId = pickedProfileId || profiles.data?.[0]?.profileId || ''
  const now = useNow()
  // A code the customer typed that the lookup refused.
  const promoMessage = promoFailed && promoInput ? 'That promo code is not valid.' : null

  if (product.error) {
    return (
      <div className="container narrow center-page">
        <h1>Drop not found</h1>
        <p className="muted">This product is not available any more.</p>
        <Link to="/shop" className="btn btn--primary">
          Back to the shop
        </Link>
      </div>
    )
  }
  if (!product.data) return <PageLoading />

  const item = product.data
  const isOneSize = item.sizeType === 'OS'
  const styles = item.styles
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const chosenStyle = style || styles[0] || 'OS'
  const left = slotsLeft(item)
  const isDraw = item.mode === 'draw'
  const entriesClosed =
    isDraw && item.entryClosesAt ? new Date(item.entryClosesAt).getTime() <= now : false
  const entriesNotOpen =
    isDraw && item.entryOpensAt ? new Date(item.entryOpensAt).getTime() > now : false
  const soldOut = !isDraw && left === 0
  const released = item.releaseAt ? new Date(item.releaseAt).getTime() <= now : false
  const chosenProfile = profiles.data?.find((p) => p.profileId === profileId)
  // The account's card: the $1.00 check and the fee go on it, not on the profile's card.
  const accountCard = { brand: info.data?.cardBrand, last4: info.data?.billingLast4 }
  const needsCardCode = cardCodeAsked || chosenProfile?.card.codeKept === false
  // The fee the server will charge: the one promo rule, in cents (shared/pricing.ts).
  const priceCents = item.priceCents ?? centsOfDollars(item.price)
  const finalCents = promo ? priceAfterPromo(priceCents, promo.percent) : priceCents
  const finalPrice = formatPrice(finalCents)
  const related = (catalogue.data ?? []).filter((p) => p.productId !== item.productId).slice(0, 3)
  const takenPercent = item.totalStock
    ? Math.min(100, Math.round((item.stockTaken / item.totalStock) * 100))
    : 100

  function startCheckout() {
    if (!isOneSize && !size) return setProblem('Please select a size.')
    if (!profileId) return setProblem('Please select a profile.')
    if (!chances.send()) return
    setProblem(null)
    setCardCodeError(null)
    setPhase('confirm')
  }

  async function confirm() {
    if (needsCardCode && !/^\d{3,4}$/.test(cardCode)) {
      setCardCodeError("Please enter your card's 3 or 4 digit security code.")
      return
    }
    setCardCodeError(null)
    const choices = chances.send()
    if (!choices) return setPhase('idle')
    setPhase('securing')
    try {
      const order = await checkout.run({
        productId: item.productId,
        style: chosenStyle,
        size: isOneSize ? 'OS' : size,
        profileId,
        ...(promo ? { promoCode: promo.code } : {}),
        ...(needsCardCode ? { cardCode } : {}),
        ...(line.status?.state === 'admitted' ? { queuePass: line.status.pass } : {}),
        ...choices,
      })
      setCardCode('')
      setPhase('secured')
      trackPurchase({
        orderId: order.orderId,
        productId: item.productId,
        productTitle: item.productTitle,
        price: order.price ?? finalCents / 100,
        size: order.size,
        style: order.style,
        promoCode: order.promoCode,
      })
      later(() => {
        setPhase('redirecting')
        later(() => void navigate('/user/orders'), AFTER_SUCCESS_MS)
      }, AFTER_SUCCESS_MS)
    } catch (error) {
      // The profile's security code was deleted meanwhile, or the one entered is not valid.
      if (
        error instanceof ApiError &&
        (error.code === 'card_code_required' || error.code === 'invalid_card_code')
      ) {
        setCardCodeAsked(true)
        setCardCodeError(error.message)
        setPhase('confirm')
        return
      }
      // A size, retailer or cap refused: told next to its field, the slot not bought.
      if (chances.refused(error)) return setPhase('idle')
      if (error instanceof ApiError && error.code === 'duplicate') {
        setPhase(error.errors.cardOnFile ? 'duplicateCard' : 'duplicate')
        setProblem(error.message || 'This profile already has a slot for this drop.')
        return
      }
      setPhase('error')
      setProblem(error instanceof ApiError ? error.message : 'Error checking out.')
      later(() => {
        setPhase('idle')
      }, AFTER_ERROR_MS)
    }
  }

  function applyPromo() {
    const value = promoInput.trim().toUpperCase()
    if (!value) return
    promoStore.set(value)
  }

  const profileOptions = (profiles.data ?? []).map((p) => ({
    value: p.profileId,
    label: `${p.profileName} · ${BRAND_LABELS[p.card.cardType] ?? 'Card'} •••• ${p.card.last4}`,
  }))

  return (
    <div className="container product">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to="/shop">Shop</Link> <span aria-hidden="true">/</span>{' '}
        <span>{brandOf(item.tags)}</span>
      </nav>
      <div className="product__layout">
        <div className="product__media">
          <ProductImage src={item.productImage} alt={item.productTitle} eager />
        </div>
        <div className="product__panel">
          <p className="eyebrow">
            {brandOf(item.tags)} · {releaseLabel(item.releaseAt)}
          </p>
          {releaseTimes(item) ? (
            <p className="product__zones">
              Your time: {releaseTimes(item)!.local} · Release time: {releaseTimes(item)!.release}
            </p>
          ) : null}
          <RestockUntil product={item} />
          <h1 className="product__title">{item.productTitle}</h1>
          <p
            className="product__price"
            aria-label={
              promo ? `Price ${finalPrice}, was ${money(item.price)}` : `Price ${money(item.price)}`
            }
          >
            {promo ? (
              <>
                <s className="product__price-old">{money(item.price)}</s>
                <span>{finalPrice}</span>
                <span className="badge badge--accent">
                  {promo.code} −{promo.percent}%
                </span>
              </>
            ) : (
              <span>{money(item.price)}</span>
            )}
            <small>slot fee</small>
          </p>
          {item.description ? <p className="product__desc">{item.description}</p> : null}
          <TriedAt retailers={item.retailers} />
          <div className="stock" aria-label={`${left} of ${item.totalStock} slots left`}>
            <div className="stock__bar">
              <span style={{ width: `${takenPercent}%` }} />
            </div>
            <span className="stock__text">
              {soldOut ? 'Sold out' : `${left} of ${item.totalStock} slots left`}
            </span>
          </div>

          <div className="product__form">
            {styles.length > 1 ? (
              <SelectField
                label="Style"
                options={styles.map((s) => ({ value: s, label: s }))}
                value={chosenStyle}
                onValue={setStyle}
              />
            ) : null}
            {!isOneSize ? (
              <SelectField
                label="Size"
                placeholder="Select a size"
                options={item.sizes.map((s) => ({ value: s, label: s }))}
                value={size}
                onValue={(value) => {
                  setSize(value)
                  setProblem(null)
                  // The buyer's size is no longer a backup of itself.
                  chances.sizeChanged(value)
                }}
              />
            ) : null}
            <MoreChances {...chances.props} />
            <SelectField
              label="Profile"
              placeholder={profiles.data?.length === 0 ? 'No profiles yet' : 'Select a profile'}
              options={profileOptions}
              value={profileId}
              onValue={(value) => {
                setProfileId(value)
                setProblem(null)
                setCardCode('')
                setCardCodeAsked(false)
                setCardCodeError(null)
                if (phase === 'duplicate' || phase === 'duplicateCard') setPhase('idle')
              }}
            />
            {profiles.data?.length === 0 ? (
              <p className="fine-print">
                You need a checkout profile. <Link to="/user/profiles">Add a profile</Link>
              </p>
            ) : null}

            <div className="promo">
              <button
                type="button"
                className="promo__toggle"
                aria-expanded={promoOpen}
                aria-controls={promoId}
                onClick={() => setPromoOpen((open) => !open)}
              >
                Promo Code{' '}
                {promo ? <span className="badge badge--accent">{promo.code} applied</span> : null}
                <IconChevron className={promoOpen ? 'rotate' : undefined} />
              </button>
              <div id={promoId} hidden={!promoOpen} className="promo__body">
                <label htmlFor={`${promoId}-input`} className="sr-only">
                  Promo code
                </label>
                <input
                  id={`${promoId}-input`}
                  value={promoInput}
                  placeholder={promoCode ?? 'Enter code'}
                  maxLength={40}
                  onChange={(event) => setPromoInput(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') {
                      event.preventDefault()
                      applyPromo()
                    }
                  }}
                />
                <button type="button" className="btn btn--secondary btn--sm" onClick={applyPromo}>
                  Apply
                </button>
                {promoMessage ? (
                  <p className="field__error" role="alert">
                    {promoMessage}
                  </p>
                ) : null}
                {promo ? (
                  <p className="promo__ok" role="status">
                    {promo.percent}% off the slot fee.{' '}
                    <button type="button" className="link-btn" onClick={() => promoStore.clear()}>
                      Remove
                    </button>
                  </p>
                ) : null}
              </div>
            </div>

            {phase === 'confirm' && needsCardCode ? (
              <Field
                label="Card security code"
                className="card-code"
                hint="We deleted it after your last checkout. It is kept only until release day."
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={4}
                value={cardCode}
                error={cardCodeError}
                onValue={(value) => {
                  setCardCode(value.replace(/\D/g, ''))
                  setCardCodeError(null)
                }}
              />
            ) : null}
            {line.status?.state === 'admitted' ? (
              <p className="waiting-room__status">
                Your turn: place {line.status.place} in line.{' '}
                <Link to={`/product/${item.productId}/line?member=${line.status.memberId}`}>
                  Check your place
                </Link>
              </p>
            ) : null}
            {hasWaitingRoom && !soldOut && !released && line.status?.state !== 'admitted' ? (
              <WaitingRoomPanel
                product={item}
                status={line.status}
                error={line.error}
                joined={line.joined}
                onJoin={() => void line.join()}
              />
            ) : released || soldOut || entriesClosed || entriesNotOpen ? (
              <button type="button" className="btn btn--secondary btn--block" disabled>
                {released
                  ? 'Released: slots are no longer sold'
                  : soldOut
                    ? 'Sold out'
                    : entriesClosed
                      ? 'Entries closed'
                      : 'Entries not open yet'}
              </button>
            ) : (
              <CheckoutButton
                draw={isDraw}
                phase={phase}
                onCheckout={startCheckout}
                onConfirm={() => void confirm()}
                onCancel={() => setPhase('idle')}
              />
            )}
            {problem ? (
              <p
                className={
                  phase === 'duplicate' || phase === 'duplicateCard' || phase === 'error'
                    ? 'form-error'
                    : 'field__error'
                }
                role="alert"
              >
                {problem}
                {phase === 'duplicateCard' ? (
                  <>
                    {' '}
                    <Link to="/user/account">Change the card on file</Link>
                  </>
                ) : null}
              </p>
            ) : null}
            {phase === 'confirm' ? (
              <p className="fine-print" role="status">
                {confirmWords({ draw: isDraw, fee: finalPrice, card: accountCard })}
              </p>
            ) : null}
            {chances.summary ? <p className="fine-print slot-summary">{chances.summary}</p> : null}
          </div>

          {isDraw ? <DrawPanel product={item} /> : null}

          <div className="info-box">
            <h2>What you pay</h2>
            <ul>
              <li>
                The price shown is a service fee only and does not include the cost of the item.
              </li>
              <li>
                A $1.00 check verifies {cardOnFileName(accountCard)} when you check out.{' '}
                {CARD_WORDS.check}
              </li>
              <li>{CARD_WORDS.fee}</li>
              <li>{CARD_WORDS.profile}</li>
            </ul>
          </div>
        </div>
      </div>

      {related.length ? (
        <section className="section related" aria-labelledby="related-title">
          <h2 id="related-title">Related Items</h2>
          <div className="product-grid is-revealed">
            {related.map((p) => (
              <ProductCard key={p.productId} product={p} now={now} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  )
}
