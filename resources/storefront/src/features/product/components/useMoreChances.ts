import { useState, type ComponentProps } from 'react'
import type { Product } from '@shared/api/contract'
import {
  choiceErrorsOf,
  choicesBody,
  clearChoiceError,
  emptyDraft,
  slotSummary,
  withoutSize,
  type ChoiceErrors,
  type SlotChoicesBody,
  type SlotChoicesDraft,
} from '../../../shared/lib/slotChoices'
import type { MoreChances } from './MoreChances'

/**
 * The checkout form's "More chances" state: the choices (every retailer ticked until the buyer
 * changes something), their errors and whether the section is open. `send` gives the choices a
 * new slot sends, or null after showing what is wrong; `refused` shows a 422 next to its field.
 */
export function useMoreChances(product: Product | undefined, size: string) {
  const [picked, setChoices] = useState<SlotChoicesDraft | null>(null)
  const [errors, setErrors] = useState<ChoiceErrors>({})
  const [open, setOpen] = useState(false)
  const retailers = product?.retailers ?? []
  const choices = picked ?? emptyDraft(retailers)
  const isOneSize = product?.sizeType === 'OS'
  const context = { size: isOneSize ? 'OS' : size, ladder: !isOneSize, retailers }

  const show = (shown: ChoiceErrors) => {
    setErrors(shown)
    setOpen(true)
  }

  const props: ComponentProps<typeof MoreChances> = {
    open,
    onToggle: () => setOpen((was) => !was),
    sizes: product?.sizes ?? [],
    ...context,
    value: choices,
    errors,
    onChange: (next, field) => {
      setChoices(next)
      setErrors((current) => clearChoiceError(current, field))
    },
  }

  return {
    props,
    summary: slotSummary(choices, context),
    /** The buyer's size changed: it is no longer a backup of itself. */
    sizeChanged: (value: string) => setChoices(withoutSize(choices, value)),
    send: (): SlotChoicesBody | null => {
      const checked = choicesBody(choices, context, 'absent')
      if ('body' in checked) return checked.body
      show(checked.errors)
      return null
    },
    /** True when the error was a refusal of the choices (now shown at its fields). */
    refused: (error: unknown): boolean => {
      const shown = choiceErrorsOf(error)
      if (shown) show(shown)
      return shown !== null
    },
  }
}
