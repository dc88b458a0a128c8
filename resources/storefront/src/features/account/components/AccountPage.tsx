import { useState, type FormEvent, type ReactNode } from 'react'
import { useNavigate } from 'react-router-dom'
import { AccountLayout } from '../../../shared/layout/AccountLayout'
import { useUserInfo } from '../../../shared/api/useUserInfo'
import { useSetBilling } from '../../../shared/api/useSetBilling'
import type { UserInfo } from '@shared/api/contract'
import { Field } from '../../../shared/ui/Field'
import { Button, ButtonLink } from '../../../shared/ui/Button'
import { PageLoading } from '../../../shared/ui/Spinner'
import { IconCard, IconEdit, IconPin, IconTrash, IconUser } from '../../../shared/ui/icons'
import {
  AddressFields,
  addressFromBilling,
  missingAddressFields,
  type AddressValue,
} from '../../../shared/ui/AddressFields'
import { isValidEmail } from '../../../shared/lib/format'
import { formatPhone, isValidPhone, phoneForServer } from '@shared/phone'
import { BRAND_LABELS } from '../../../shared/lib/cards'
import { CARD_WORDS } from '@shared/vocabulary'
import { COUNTRIES, US_STATES } from '../../../shared/data/geo'
import { session } from '../../../shared/session/session'
import { useUpdateAccount } from '../api/useUpdateAccount'
import { useDeleteAccount } from '../api/useDeleteAccount'
import { UpdateCardModal } from './UpdateCardModal'
import { TwoStepBlock } from './TwoStepBlock'
import { useCardAuthenticationReturn } from '../../../shared/lib/cardAuthentication'

function Block({
  icon,
  title,
  action,
  children,
}: {
  icon: ReactNode
  title: string
  action?: ReactNode
  children: ReactNode
}) {
  const id = title.toLowerCase().replace(/\s+/g, '-')
  return (
    <section className="card block" aria-labelledby={id}>
      <header className="block__header">
        <span className="block__icon">{icon}</span>
        <h2 id={id}>{title}</h2>
        {action}
      </header>
      {children}
    </section>
  )
}

function EditButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <button type="button" className="btn btn--ghost btn--sm" onClick={onClick} aria-label={label}>
      <IconEdit width={16} height={16} /> Edit
    </button>
  )
}

function AccountInfo({ user }: { user: UserInfo }) {
  const [editing, setEditing] = useState(false)
  const [form, setForm] = useState({ name: '', email: '', phone: '' })
  const [error, setError] = useState<string | null>(null)
  const update = useUpdateAccount()

  function edit() {
    setForm({ name: user.name, email: user.email, phone: formatPhone(user.phone ?? '') })
    setError(null)
    setEditing(true)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!form.name.trim() || !isValidEmail(form.email) || !isValidPhone(form.phone)) {
      return setError('Please fill out the form correctly.')
    }
    try {
      const saved = await update.run({
        name: form.name.trim(),
        email: form.email.trim(),
        phone: phoneForServer(form.phone),
      })
      const stored = session.get()
      if (stored) session.set({ ...stored, name: saved.name, email: saved.email })
      setEditing(false)
    } catch (caught) {
      setError((caught as Error).message)
    }
  }

  return (
    <Block
      icon={<IconUser />}
      title="Account Info"
      action={editing ? null : <EditButton onClick={edit} label="Edit account info" />}
    >
      {editing ? (
        <form className="stack" onSubmit={submit} noValidate>
          <Field
            label="Full Name"
            autoComplete="name"
            value={form.name}
            maxLength={64}
            onValue={(name) => setForm({ ...form, name })}
            required
          />
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            value={form.email}
            onValue={(email) => setForm({ ...form, email })}
            required
          />
          <Field
            label="Phone"
            type="tel"
            autoComplete="tel"
            value={form.phone}
            onValue={(phone) => setForm({ ...form, phone: formatPhone(phone) })}
            required
          />
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="actions actions--end">
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.pending}>
              {update.pending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
      ) : (
        <dl className="details">
          <div>
            <dt>Full Name</dt>
            <dd>{user.name || '—'}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>Phone</dt>
            <dd>{user.phone ? formatPhone(user.phone) : '—'}</dd>
          </div>
        </dl>
      )}
    </Block>
  )
}

function BillingAddressBlock({ user }: { user: UserInfo }) {
  const [editing, setEditing] = useState(false)
  const [address, setAddress] = useState<AddressValue | null>(null)
  const [invalid, setInvalid] = useState<string[]>([])
  const setBilling = useSetBilling()
  const saved = user.billingAddress

  function edit() {
    setAddress(addressFromBilling(saved))
    setInvalid([])
    setEditing(true)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!address) return
    const missing = missingAddressFields(address)
    setInvalid(missing)
    if (missing.length) return
    try {
      await setBilling.run(address)
      setEditing(false)
    } catch {
      // Shown below the form.
    }
  }

  const countryName = COUNTRIES.find((c) => c.code === saved?.country)?.name ?? saved?.country
  const stateName =
    saved?.country === 'US'
      ? (US_STATES.find((s) => s.code === saved?.state)?.code ?? saved?.state)
      : saved?.state

  return (
    <Block
      icon={<IconPin />}
      title="Billing Address"
      action={editing ? null : <EditButton onClick={edit} label="Edit billing address" />}
    >
      {editing && address ? (
        <form className="stack" onSubmit={submit} noValidate>
          <AddressFields
            value={address}
            onChange={setAddress}
            invalid={invalid}
            labels={{ address1: 'Address 1' }}
          />
          {setBilling.error ? (
            <p className="form-error" role="alert">
              {setBilling.error.message}
            </p>
          ) : null}
          <div className="actions actions--end">
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={setBilling.pending}>
              {setBilling.pending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
      ) : saved?.line1 ? (
        <address className="address">
          {saved.line1}
          {saved.line2 ? <>, {saved.line2}</> : null}
          <br />
          {saved.city}, {stateName} {saved.postal_code}
          <br />
          {countryName}
        </address>
      ) : (
        <p className="muted">No billing address yet.</p>
      )}
    </Block>
  )
}

function PaymentMethodBlock({ user }: { user: UserInfo }) {
  const [open, setOpen] = useState(false)
  // Back from the bank's 3-D Secure check of a card being saved.
  const returned = useCardAuthenticationReturn()
  const brand = user.cardBrand ? (BRAND_LABELS[user.cardBrand] ?? 'Card') : 'Card'
  return (
    <Block
      icon={<IconCard />}
      title="Payment Method"
      action={
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(true)}>
          Update Card
        </button>
      }
    >
      {user.billingLast4 ? (
        <div className="card-chip">
          <span className="card-chip__brand">{brand}</span>
          <span className="card-chip__number">•••• {user.billingLast4}</span>
          {user.cardExpMonth && user.cardExpYear ? (
            <span className="card-chip__exp">
              Expires {String(user.cardExpMonth).padStart(2, '0')}/
              {String(user.cardExpYear).slice(-2)}
            </span>
          ) : null}
        </div>
      ) : (
        <p className="muted">No card on file yet.</p>
      )}
      <p className="fine-print">{CARD_WORDS.onFile}</p>
      {returned.status === 'confirming' ? (
        <p className="muted" role="status">
          Confirming your card...
        </p>
      ) : returned.status === 'saved' ? (
        <p className="notice notice--success" role="status">
          Your card was confirmed and saved.
        </p>
      ) : returned.status === 'failed' ? (
        <p className="form-error" role="alert">
          {returned.message}
        </p>
      ) : null}
      <UpdateCardModal open={open} onClose={() => setOpen(false)} user={user} />
    </Block>
  )
}

function DeleteAccountBlock() {
  const [confirming, setConfirming] = useState(false)
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const remove = useDeleteAccount()
  const navigate = useNavigate()

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!password) return setError('Please enter your password.')
    try {
      await remove.run(password)
      void navigate('/', { replace: true, state: { notice: 'Your account was deleted.' } })
    } catch (caught) {
      setError((caught as Error).message)
    }
  }

  return (
    <Block icon={<IconTrash />} title="Delete Account">
      <p className="fine-print">
        Deletes your account, your profiles and every card we keep for you, here and at our payment
        provider. Your past orders stay on record with your name and e-mail, without the card.
      </p>
      {confirming ? (
        <form className="stack" onSubmit={submit} noValidate>
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            error={error}
            onValue={(value) => {
              setPassword(value)
              setError(null)
            }}
            required
          />
          <div className="actions actions--end">
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={remove.pending}>
              {remove.pending ? 'Deleting...' : 'Delete my account'}
            </Button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete account
          </Button>
        </div>
      )}
    </Block>
  )
}

export function AccountPage() {
  const info = useUserInfo()
  return (
    <AccountLayout
      title="Overview"
      actions={
        <ButtonLink to="/shop" variant="secondary">
          Shop drops
        </ButtonLink>
      }
    >
      {info.data ? (
        <div className="blocks">
          <AccountInfo user={info.data} />
          <BillingAddressBlock user={info.data} />
          <PaymentMethodBlock user={info.data} />
          <TwoStepBlock user={info.data} />
          <DeleteAccountBlock />
        </div>
      ) : info.error ? (
        <p className="form-error" role="alert">
          {info.error.message}
        </p>
      ) : (
        <PageLoading />
      )}
    </AccountLayout>
  )
}
