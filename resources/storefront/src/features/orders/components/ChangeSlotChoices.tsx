import { useId, useRef, useState, type FormEvent } from 'react'
import type { Order, Product } from '@shared/api/contract'
import { ApiError } from '../../../shared/api/client'
import { useProduct } from '../../../shared/api/useProduct'
import { Button } from '../../../shared/ui/Button'
import { SlotChoiceFields } from '../../../shared/ui/SlotChoiceFields'
import {
  choiceErrorsOf,
  choicesBody,
  clearChoiceError,
  draftOfOrder,
  type ChoiceErrors,
} from '../../../shared/lib/slotChoices'
import { useChangeSlotChoices } from '../api/useChangeSlotChoices'

/** Orders whose choices may still change (until the release starts; the server decides). */
export const canChangeChoices = (order: Order) =>
  ['pending', 'entered'].includes(order.status.toLowerCase())

/**
 * "Change sizes and cap" on an order not yet tried: its backup sizes, retailers and price cap in
 * a small form under the order. `listed` is the catalogue's copy of the product, when it has one.
 */
export function ChangeSlotChoices({ order, listed }: { order: Order; listed?: Product }) {
  const [open, setOpen] = useState(false)
  const [saved, setSaved] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const formId = useId()

  const close = (done: boolean) => {
    setOpen(false)
    setSaved(done)
    toggle.current?.focus()
  }

  return (
    <div className="order__action order__choices">
      <Button
        ref={toggle}
        variant="secondary"
        className="btn--sm"
        aria-expanded={open}
        aria-controls={open ? formId : undefined}
        onClick={() => {
          setSaved(false)
          setOpen((was) => !was)
        }}
      >
        Change sizes and cap
      </Button>
      {saved ? (
        <p className="order__choices-saved" role="status">
          Your choices are saved.
        </p>
      ) : null}
      {open ? <ProductChoices id={formId} order={order} listed={listed} onClose={close} /> : null}
    </div>
  )
}

/** The product's sizes and retailers: the catalogue's copy, else the product read on its own. */
function ProductChoices({
  id,
  order,
  listed,
  onClose,
}: {
  id: string
  order: Order
  listed?: Product
  onClose: (saved: boolean) => void
}) {
  const fetched = useProduct(listed ? undefined : String(order.productId))
  const product = listed ?? fetched.data
  if (product) return <ChoicesForm id={id} order={order} product={product} onClose={onClose} />
  return fetched.error ? (
    <p className="form-error" id={id} role="alert">
      We could not load this drop&apos;s sizes and retailers. Please try again later.
    </p>
  ) : (
    <p className="muted" id={id} role="status">
      Loading...
    </p>
  )
}

function ChoicesForm({
  id,
  order,
  product,
  onClose,
}: {
  id: string
  order: Order
  product: Product
  onClose: (saved: boolean) => void
}) {
  const change = useChangeSlotChoices()
  const [choices, setChoices] = useState(() => draftOfOrder(order, product.retailers))
  const [errors, setErrors] = useState<ChoiceErrors>({})
  const [problem, setProblem] = useState<string | null>(null)
  const context = {
    size: order.size,
    ladder: product.sizeType !== 'OS',
    retailers: product.retailers,
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    const checked = choicesBody(choices, context, 'null')
    if ('errors' in checked) return setErrors(checked.errors)
    setProblem(null)
    try {
      await change.run(order.orderId, checked.body)
      onClose(true)
    } catch (error) {
      const refused = choiceErrorsOf(error)
      if (refused) return setErrors(refused)
      // 409 choices_closed: the release started; the server's words say so.
      setProblem(error instanceof ApiError ? error.message : 'We could not save your choices.')
    }
  }

  return (
    <form
      id={id}
      className="order__choices-form"
      aria-label={`Sizes and cap for ${order.productTitle}`}
      noValidate
      onSubmit={(event) => void save(event)}
    >
      <SlotChoiceFields
        sizes={product.sizes}
        {...context}
        value={choices}
        errors={errors}
        onChange={(next, field) => {
          setChoices(next)
          setErrors((current) => clearChoiceError(current, field))
        }}
      />
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" busy={change.pending} disabled={change.pending}>
          Save choices
        </Button>
        <Button variant="ghost" onClick={() => onClose(false)}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
