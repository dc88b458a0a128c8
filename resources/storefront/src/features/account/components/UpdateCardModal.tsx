import { useState, type FormEvent } from 'react'
import { useLocation } from 'react-router-dom'
import { Modal } from '../../../shared/ui/Modal'
import { CardFields } from '../../../shared/ui/CardFields'
import { Button } from '../../../shared/ui/Button'
import { useGenCardToken } from '../../../shared/api/useGenCardToken'
import { useSetBilling } from '../../../shared/api/useSetBilling'
import { addressFromBilling } from '../../../shared/ui/AddressFields'
import { useConfirmCard } from '../../../shared/api/useConfirmCard'
import { currentPath, finishCardSave, isCardRefusal } from '../../../shared/lib/cardAuthentication'
import type { UserInfo } from '@shared/api/contract'
import { CARD_WORDS } from '@shared/vocabulary'
import { INVALID_CARD, validateCard, type CardFields as CardValue } from '../../../shared/lib/cards'

const EMPTY = { number: '', expiry: '', cvv: '' }

/** Update Card: Card Number (max 16), MM/YY, CVV; closes on an outside click. */
export function UpdateCardModal({
  open,
  onClose,
  user,
}: {
  open: boolean
  onClose: () => void
  user: UserInfo
}) {
  const [card, setCard] = useState<CardValue>(EMPTY)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const genToken = useGenCardToken()
  const setBilling = useSetBilling()
  const confirmCard = useConfirmCard()
  const location = useLocation()

  function close() {
    setCard(EMPTY)
    setError(null)
    onClose()
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const valid = validateCard(card)
    if (!valid) return setError(INVALID_CARD)
    const address = user.billingAddress
    if (!address?.line1) return setError('Please add your billing address first.')
    setError(null)
    setSaving(true)
    try {
      const token = await genToken.run({
        name: user.name,
        number: valid.number,
        exp_month: valid.month,
        exp_year: valid.year,
        cvc: valid.code,
        address_zip: address.postal_code,
      })
      const answer = await setBilling.run(addressFromBilling(address), token)
      // A card whose bank asks for 3-D Secure: the customer confirms it first.
      const saved = await finishCardSave(answer, currentPath(location), confirmCard.run)
      if (saved === 'redirected') return
      close()
    } catch (caught) {
      // A card the gateway declines (or the bank did not confirm) says so; anything else keeps
      // the spec's text.
      setError(isCardRefusal(caught) ? caught.message : INVALID_CARD)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Update Card"
      subtitle={`The new card replaces the one on file. ${CARD_WORDS.onFile}`}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <CardFields value={card} onChange={setCard} />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions actions--end">
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
