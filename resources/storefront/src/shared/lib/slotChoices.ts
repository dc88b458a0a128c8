import type { ProductRetailer } from '@shared/api/contract'
import { centsOfDollars, formatCents } from '@shared/pricing'
import {
  ladderWords,
  MAX_ITEM_PRICE_CAP_CENTS,
  MAX_SIZE_LADDER,
  MIN_ITEM_PRICE_CAP_CENTS,
  PRICE_CAP_RULE,
  RETAILER_CHOICE_RULE,
} from '@shared/slot_choices'
import { ApiError } from '../api/client'

/*
| A slot's choices as a form holds them (the product page's "More chances", the orders page's
| "Change sizes and cap"): the backup sizes in order, the retailers ticked and the price cap as
| typed. The server checks them again (shared/slot_choices.ts holds the rules and the words).
*/

/** The fields a refusal (422 `invalid_slot_choices`) names in `errors`. */
export type ChoiceField = 'sizes' | 'retailers' | 'maxItemPriceCents'
/** A message per field, and `form` for one that names no field of the form. */
export type ChoiceErrors = Partial<Record<ChoiceField | 'form', string>>

export type SlotChoicesDraft = {
  /** The sizes tried after the buyer's own, in order. */
  backups: string[]
  /** The keys of the retailers ticked (every one of the product's by default). */
  retailers: string[]
  /** The price cap in dollars, as typed; empty: no cap. */
  cap: string
}

/** What the request sends: absent leaves a choice as it is (or at its default on a new slot). */
export type SlotChoicesBody = {
  sizes?: string[] | null
  retailers?: string[] | null
  maxItemPriceCents?: number | null
}

/** The sizes a slot may try besides the buyer's own. */
export const MAX_BACKUP_SIZES = MAX_SIZE_LADDER - 1

const sameSize = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** A new slot's choices: no backup, every retailer, no cap. */
export function emptyDraft(retailers: readonly ProductRetailer[]): SlotChoicesDraft {
  return { backups: [], retailers: retailers.map((entry) => entry.retailer), cap: '' }
}

/** An order's choices as the form shows them (retailers the product no longer lists are left out). */
export function draftOfOrder(
  order: {
    sizes: readonly string[]
    retailers: readonly string[] | null
    maxItemPriceCents: number | null
  },
  retailers: readonly ProductRetailer[]
): SlotChoicesDraft {
  const keys = retailers.map((entry) => entry.retailer)
  const accepted = order.retailers ? keys.filter((key) => order.retailers!.includes(key)) : keys
  return {
    backups: order.sizes.slice(1),
    retailers: accepted.length ? accepted : keys,
    cap: order.maxItemPriceCents === null ? '' : (order.maxItemPriceCents / 100).toFixed(2),
  }
}

/** The sizes still offered as a backup: the product's, less the buyer's size and those chosen. */
export function backupOptions(
  sizes: readonly string[],
  size: string,
  backups: readonly string[]
): string[] {
  return sizes.filter(
    (candidate) =>
      !sameSize(candidate, size) && !backups.some((backup) => sameSize(backup, candidate))
  )
}

/** The backups once the buyer's size is `size` (it is no longer a backup of itself). */
export function withoutSize(draft: SlotChoicesDraft, size: string): SlotChoicesDraft {
  return draft.backups.some((backup) => sameSize(backup, size))
    ? { ...draft, backups: draft.backups.filter((backup) => !sameSize(backup, size)) }
    : draft
}

/**
 * The cap typed in dollars (`250`, `$1,250.50`) as integer cents: null when empty, undefined
 * when it is not an amount from $1.00 to $100,000.00 with at most two decimals.
 */
export function capCents(text: string): number | null | undefined {
  const cleaned = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,/g, '')
  if (cleaned === '') return null
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return undefined
  const cents = centsOfDollars(Number(cleaned))
  return cents >= MIN_ITEM_PRICE_CAP_CENTS && cents <= MAX_ITEM_PRICE_CAP_CENTS ? cents : undefined
}

/** Where the form's choices apply: the buyer's size, whether it has a ladder, the retailers. */
export type ChoiceContext = {
  size: string
  /** False for a one-size product: no backup sizes. */
  ladder: boolean
  retailers: readonly ProductRetailer[]
}

/**
 * The request's choices, or what is wrong before anything is sent. `defaults: 'absent'` (a new
 * slot) sends only what differs from the defaults; `'null'` (changing an order) sends every
 * choice shown, null for a default, so a choice taken back is cleared.
 */
export function choicesBody(
  draft: SlotChoicesDraft,
  context: ChoiceContext,
  defaults: 'absent' | 'null'
): { body: SlotChoicesBody } | { errors: ChoiceErrors } {
  const cap = capCents(draft.cap)
  const keys = context.retailers.map((entry) => entry.retailer)
  const accepted = keys.filter((key) => draft.retailers.includes(key))
  const errors: ChoiceErrors = {}
  if (cap === undefined) errors.maxItemPriceCents = PRICE_CAP_RULE
  if (keys.length > 1 && accepted.length === 0) errors.retailers = RETAILER_CHOICE_RULE
  if (Object.keys(errors).length) return { errors }

  const fallback = defaults === 'null' ? null : undefined
  const body: SlotChoicesBody = {}
  const backups = context.ladder ? draft.backups : []
  const sizes = backups.length ? [context.size, ...backups] : fallback
  if (context.ladder && sizes !== undefined) body.sizes = sizes
  const retailers = accepted.length < keys.length ? accepted : fallback
  if (keys.length > 1 && retailers !== undefined) body.retailers = retailers
  const maxItemPriceCents = cap ?? fallback
  if (maxItemPriceCents !== undefined) body.maxItemPriceCents = maxItemPriceCents
  return { body }
}

/** `Kith`, `Kith and New Balance`, `Kith, New Balance and Foot Locker`. */
function andList(words: readonly string[]): string {
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/**
 * What one slot buys, in a line, when the buyer set any choice: `One slot, one fee: tried in
 * sizes 10, then 10.5 at Kith and New Balance, up to $250.00.` Null without a choice or a size.
 */
export function slotSummary(draft: SlotChoicesDraft, context: ChoiceContext): string | null {
  const cap = capCents(draft.cap)
  const backups = context.ladder ? draft.backups : []
  const accepted = context.retailers.filter((entry) => draft.retailers.includes(entry.retailer))
  const narrowed = context.retailers.length > 1 && accepted.length < context.retailers.length
  if (!context.size || (!backups.length && !narrowed && !cap)) return null
  // A one-size product names no size.
  const sizes = !context.ladder
    ? null
    : backups.length
      ? `in sizes ${ladderWords([context.size, ...backups])}`
      : `in size ${ladderWords([context.size])}`
  const where = accepted.length ? `at ${andList(accepted.map((entry) => entry.name))}` : null
  const tried = [sizes, where].filter(Boolean).join(' ')
  const parts = [tried ? `tried ${tried}` : null, cap ? `up to ${formatCents(cap)}` : null]
  return `One slot, one fee: ${parts.filter(Boolean).join(', ')}.`
}

/** The errors once `field` changed: its own and a refusal naming no field are out of date. */
export function clearChoiceError(errors: ChoiceErrors, field: ChoiceField): ChoiceErrors {
  if (!errors[field] && !errors.form) return errors
  const next = { ...errors }
  delete next[field]
  delete next.form
  return next
}

/** A refusal of the choices (422 `invalid_slot_choices`): its message for each field named. */
export function choiceErrorsOf(error: unknown): ChoiceErrors | null {
  if (!(error instanceof ApiError) || error.code !== 'invalid_slot_choices') return null
  const errors: ChoiceErrors = {}
  for (const field of ['sizes', 'retailers', 'maxItemPriceCents'] as const) {
    if (error.errors[field]) errors[field] = error.errors[field]
  }
  return Object.keys(errors).length ? errors : { form: error.message }
}
