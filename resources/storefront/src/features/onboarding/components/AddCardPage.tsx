import { useEffect, useState, type FormEvent } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router-dom'
import { returnPath, withReturnPath } from '../../../shared/lib/returnTo'
import { SplitLayout } from '../../../shared/layout/SplitLayout'
import { CardFields } from '../../../shared/ui/CardFields'
import { Button, ButtonLink } from '../../../shared/ui/Button'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useUserInfo } from '../../../shared/api/useUserInfo'
import { useGenCardToken } from '../../../shared/api/useGenCardToken'
import { useSetBilling } from '../../../shared/api/useSetBilling'
import { addressFromBilling } from '../../../shared/ui/AddressFields'
import { useConfirmCard } from '../../../shared/api/useConfirmCard'
import {
  currentPath,
  finishCardSave,
  isCardRefusal,
  useCardAuthenticationReturn,
} from '../../../shared/lib/cardAuthentication'
import { useAddProfile } from '../../../shared/api/useAddProfile'
import { INVALID_CARD, validateCard, type CardFields as CardValue } from '../../../shared/lib/cards'
import { splitName } from '../../../shared/lib/format'
import { CARD_WORDS } from '@shared/vocabulary'

export function AddCardPage() {
  const navigate = useNavigate()
  const location = useLocation()
  const next = returnPath(location.search)
  const info = useUserInfo()
  const genToken = useGenCardToken()
  const setBilling = useSetBilling()
  const addProfile = useAddProfile()
  const [card, setCard] = useState<CardValue>({ number: '', expiry: '', cvv: '' })
  const [error, setError] = useState(false)
  const [declined, setDeclined] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [retried, setRetried] = useState(false)
  const confirmCard = useConfirmCard()
  // Back from the bank's 3-D Secure check: a confirmed card continues to the next step.
  const returned = useCardAuthenticationReturn()
  useEffect(() => {
    if (returned.status === 'saved') void navigate(next ?? '/shop')
  }, [returned, navigate, next])
  // The bank's refusal shows until the customer tries again.
  const refusal = declined ?? (!retried && returned.status === 'failed' ? returned.message : null)

  if (info.loading || returned.status === 'confirming' || returned.status === 'saved') {
    return <PageLoading />
  }
  const user = info.data
  // The card is saved with the billing address: without one, that step comes first.
  if (user && !info.fetching && !user.billingAddress?.line1) {
    return <Navigate to={withReturnPath('/addBilling', next)} replace />
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const valid = validateCard(card)
    const address = user?.billingAddress
    if (!valid || !user?.name || !address) {
      setError(true)
      return
    }
    setError(false)
    setDeclined(null)
    setRetried(true)
    setBusy(true)
    try {
      const token = await genToken.run({
        name: user.name,
        number: valid.number,
        exp_month: valid.month,
        exp_year: valid.year,
        cvc: valid.code,
        address_zip: address.postal_code,
      })
      const billing = addressFromBilling(address)
      const answer = await setBilling.run(billing, token)
      // Step 3 also keeps a first checkout profile built from the name, phone and address.
      const { firstName, lastName } =
        user.firstName && user.lastName
          ? { firstName: user.firstName, lastName: user.lastName }
          : splitName(user.name)
      if (user.phone && firstName && lastName) {
        const profileAddress = { ...billing, firstName, lastName }
        await addProfile
          .run({
            profileName: 'Default',
            email: user.email,
            phone: user.phone,
            shipping: profileAddress,
            billing: profileAddress,
            card: {
              name: user.name,
              number: valid.number,
              code: valid.code,
              month: valid.month,
              year: valid.year,
            },
          })
          .catch((caught) => console.error('Could not save the first profile', caught))
      }
      // A card whose bank asks for 3-D Secure: the customer confirms it, then continues.
      const saved = await finishCardSave(answer, currentPath(location), confirmCard.run)
      if (saved === 'redirected') return
      await navigate(next ?? '/shop')
    } catch (caught) {
      // A card the gateway declines (or the bank did not confirm) says so; a number that fails
      // the check keeps the spec's text.
      if (isCardRefusal(caught)) setDeclined(caught.message)
      else setError(true)
    } finally {
      setBusy(false)
    }
  }

  return (
    <SplitLayout step="Step 3 of 3">
      <form className="stack" onSubmit={submit} noValidate>
        <div>
          <h1>Add a Card</h1>
          <p className="muted">{CARD_WORDS.saving}</p>
        </div>
        <CardFields value={card} onChange={setCard} />
        {error || refusal ? (
          <p className="form-error" role="alert">
            {refusal ?? INVALID_CARD}
          </p>
        ) : null}
        <div className="actions">
          <Button type="submit" disabled={busy}>
            {busy ? 'Adding...' : 'Add and Shop'}
          </Button>
          <ButtonLink to="/shop" variant="ghost">
            Add card later
          </ButtonLink>
        </div>
        <p className="fine-print">{CARD_WORDS.check}</p>
      </form>
    </SplitLayout>
  )
}
