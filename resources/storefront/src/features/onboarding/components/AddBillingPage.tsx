import { useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { returnPath, withReturnPath } from '../../../shared/lib/returnTo'
import { SplitLayout } from '../../../shared/layout/SplitLayout'
import {
  AddressFields,
  addressFromBilling,
  missingAddressFields,
  type AddressValue,
} from '../../../shared/ui/AddressFields'
import { Button, ButtonLink } from '../../../shared/ui/Button'
import { useSetBilling } from '../../../shared/api/useSetBilling'
import { useUserInfo } from '../../../shared/api/useUserInfo'

export function AddBillingPage() {
  const navigate = useNavigate()
  const next = returnPath(useLocation().search)
  const info = useUserInfo()
  const setBilling = useSetBilling()
  const [edited, setEdited] = useState<AddressValue | null>(null)
  const [invalid, setInvalid] = useState<string[]>([])

  // Someone coming back to this step sees the address they saved before, until they edit it.
  const saved = info.data?.billingAddress
  const address: AddressValue = edited ?? addressFromBilling(saved)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const missing = missingAddressFields(address)
    setInvalid(missing)
    if (missing.length) return
    try {
      await setBilling.run({ ...address, address2: address.address2.trim() })
      await navigate(withReturnPath('/addCard', next))
    } catch {
      // The error is shown below the form.
    }
  }

  return (
    <SplitLayout step="Step 2 of 3">
      <form className="stack" onSubmit={submit} noValidate>
        <div>
          <h1>Add your Billing Address</h1>
          <p className="muted">It must match the address of the card you will add next.</p>
        </div>
        <AddressFields value={address} onChange={setEdited} invalid={invalid} />
        {setBilling.error ? (
          <p className="form-error" role="alert">
            {setBilling.error.message}
          </p>
        ) : null}
        <div className="actions">
          <Button type="submit" disabled={setBilling.pending}>
            {setBilling.pending ? 'Saving...' : 'Continue'}
          </Button>
          <ButtonLink to="/shop" variant="ghost">
            Add later
          </ButtonLink>
        </div>
      </form>
    </SplitLayout>
  )
}
