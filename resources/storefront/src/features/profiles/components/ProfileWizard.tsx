import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Modal } from '../../../shared/ui/Modal'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { CardFields } from '../../../shared/ui/CardFields'
import {
  AddressFields,
  EMPTY_ADDRESS,
  missingAddressFields,
  type AddressValue,
} from '../../../shared/ui/AddressFields'
import type { Profile } from '@shared/api/contract'
import { useAddProfile } from '../../../shared/api/useAddProfile'
import { isValidEmail, splitName } from '../../../shared/lib/format'
import { formatPhone, isValidPhone, phoneForServer } from '@shared/phone'
import { INVALID_CARD, validateCard, type CardFields as CardValue } from '../../../shared/lib/cards'
import { useEditProfile } from '../api/useEditProfile'

const INCOMPLETE = 'Please complete the form.'
type Step = 1 | 2 | 3

const generalOf = (profile: Profile | null) =>
  profile
    ? {
        profileName: profile.profileName,
        email: profile.email,
        fullName: `${profile.shipping.firstName} ${profile.shipping.lastName}`.trim(),
        phone: formatPhone(profile.phone),
      }
    : { profileName: '', email: '', fullName: '', phone: '' }

const addressOf = (profile: Profile | null): AddressValue => {
  if (!profile) return EMPTY_ADDRESS
  const { address1, address2, city, zip, state, country } = profile.shipping
  return { address1, address2: address2 ?? '', city, zip, state, country: country || 'US' }
}

/**
 * The 3-step profile wizard: general details, address, card. "New Profile" creates, "Edit
 * Profile" edits (a blank card keeps the saved one). It starts from `profile` (or blank) when it
 * mounts: the page gives it a new key each time it opens.
 */
export function ProfileWizard({
  open,
  profile,
  onClose,
}: {
  open: boolean
  profile: Profile | null
  onClose: () => void
}) {
  const editing = profile !== null
  const [step, setStep] = useState<Step>(1)
  const [general, setGeneral] = useState(() => generalOf(profile))
  const [address, setAddress] = useState<AddressValue>(() => addressOf(profile))
  const [card, setCard] = useState<CardValue>({ number: '', expiry: '', cvv: '' })
  const [keepCardCode, setKeepCardCode] = useState(profile?.keepCardCode ?? false)
  const [error, setError] = useState<string | null>(null)
  const add = useAddProfile()
  const edit = useEditProfile()
  const bodyRef = useRef<HTMLFormElement>(null)

  // Keyboard users land on the first field of each step.
  useEffect(() => {
    if (open) bodyRef.current?.querySelector<HTMLElement>('input, select')?.focus()
  }, [step, open])

  const names = splitName(general.fullName)

  function stepOneValid() {
    return Boolean(
      general.profileName.trim() &&
      names.firstName &&
      names.lastName &&
      isValidPhone(general.phone) &&
      isValidEmail(general.email)
    )
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (step === 1) {
      if (!stepOneValid()) return setError(INCOMPLETE)
      setError(null)
      return setStep(2)
    }
    if (step === 2) {
      if (missingAddressFields(address).length) return setError(INCOMPLETE)
      setError(null)
      return setStep(3)
    }
    const cardGiven = Boolean(card.number || card.expiry || card.cvv)
    const validCard = cardGiven ? validateCard(card) : null
    if ((!editing || cardGiven) && !validCard) return setError(INVALID_CARD)
    setError(null)
    const place = {
      ...address,
      address2: address.address2.trim(),
      firstName: names.firstName.slice(0, 15),
      lastName: names.lastName.slice(0, 20),
    }
    const payload = {
      profileName: general.profileName.trim(),
      email: general.email.trim(),
      phone: phoneForServer(general.phone),
      shipping: place,
      billing: place,
      keepCardCode,
      ...(validCard
        ? {
            card: {
              name: `${names.firstName} ${names.lastName}`,
              number: validCard.number,
              code: validCard.code,
              month: validCard.month,
              year: validCard.year,
            },
          }
        : {}),
    }
    try {
      if (profile) await edit.run({ ...payload, profileId: profile.profileId })
      else await add.run(payload)
      onClose()
    } catch (caught) {
      console.error('Could not save the profile', caught)
      setError((caught as Error).message || INCOMPLETE)
    }
  }

  const saving = add.pending || edit.pending
  const title = editing ? 'Edit Profile' : 'New Profile'
  const stepTitle =
    step === 1 ? 'Step 1/3 · Profile' : step === 2 ? 'Step 2/3 · Address' : 'Step 3/3 · Card'

  return (
    <Modal open={open} onClose={onClose} title={title} subtitle={stepTitle}>
      <div className="wizard-progress" aria-hidden="true">
        {[1, 2, 3].map((n) => (
          <span key={n} className={n <= step ? 'is-done' : undefined} />
        ))}
      </div>
      <form
        ref={bodyRef}
        className="stack"
        onSubmit={submit}
        noValidate
        aria-label={`${title}, ${stepTitle}`}
      >
        {step === 1 ? (
          <>
            <Field
              label="Profile Name"
              value={general.profileName}
              maxLength={64}
              placeholder="Home, Office, Mom's place"
              onValue={(profileName) => setGeneral({ ...general, profileName })}
              required
            />
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              value={general.email}
              onValue={(email) => setGeneral({ ...general, email })}
              required
            />
            <Field
              label="Full Name"
              autoComplete="name"
              value={general.fullName}
              maxLength={36}
              hint="First and last name, as on the card"
              onValue={(fullName) => setGeneral({ ...general, fullName })}
              required
            />
            <Field
              label="Phone"
              type="tel"
              autoComplete="tel"
              value={general.phone}
              onValue={(phone) => setGeneral({ ...general, phone: formatPhone(phone) })}
              required
            />
          </>
        ) : null}
        {step === 2 ? (
          <AddressFields
            value={address}
            onChange={setAddress}
            labels={{ address1: 'Address 1', address2: 'Address 2', zip: 'Zip' }}
          />
        ) : null}
        {step === 3 ? (
          <CardFields
            value={card}
            onChange={setCard}
            required={!editing}
            numberHint={
              editing ? `Leave blank to keep the card ending in ${profile?.card.last4}.` : undefined
            }
          />
        ) : null}
        {step === 3 ? (
          <label className="check">
            <input
              type="checkbox"
              checked={keepCardCode}
              onChange={(event) => setKeepCardCode(event.target.checked)}
            />
            <span>
              Keep my security code for later releases. Otherwise we delete it once your slots are
              checked out, and ask for it at your next checkout.
            </span>
          </label>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions actions--end">
          {step > 1 ? (
            <Button
              variant="ghost"
              onClick={() => {
                setError(null)
                setStep((step - 1) as Step)
              }}
            >
              Back
            </Button>
          ) : null}
          <Button type="submit" disabled={saving}>
            {step < 3 ? 'Next' : saving ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
