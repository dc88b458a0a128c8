import { AppError } from '#core/exceptions/app_error'
import type { RetailerEntry } from '#catalog/services/product_retailers'
import type { SlotChoices } from '#orders/services/slot_choice_columns'
import { formatCents } from '#shared/pricing'
import {
  MAX_ITEM_PRICE_CAP_CENTS,
  MAX_SIZE_LADDER,
  MIN_ITEM_PRICE_CAP_CENTS,
  PRICE_CAP_RULE,
  RETAILER_CHOICE_RULE,
  SIZE_LADDER_RULE,
} from '#shared/slot_choices'

/** What a buyer sends about a slot's choices; absent (undefined) leaves a choice as it is. */
export type SlotChoicesRequest = {
  /** The sizes to try, in order, the first the slot's size; null: only the slot's size. */
  sizes?: unknown
  /** Retailer keys the buyer accepts; null: every retailer of the release. */
  retailers?: unknown
  /** The most the buyer pays the retailer for the item with shipping, in cents; null: no cap. */
  maxItemPriceCents?: unknown
}

/** The product as the choices are checked against it. */
export type ChoiceProduct = {
  sizeType: string
  sizes: readonly string[] | null
}

function refuse(field: keyof SlotChoicesRequest, message: string): never {
  throw AppError.unprocessable(message, { [field]: message }, 'invalid_slot_choices')
}

/** The product's sizes a buyer may name (OS for a one-size product). */
function sizesOf(product: ChoiceProduct): readonly string[] {
  return product.sizeType === 'OS' ? ['OS'] : (product.sizes ?? [])
}

/** A list of distinct strings, each one of `allowed` (matched without case, kept as spelled there). */
function pickList(
  value: unknown,
  allowed: readonly string[],
  max: number,
  field: keyof SlotChoicesRequest,
  rule: string
): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > max) refuse(field, rule)
  const picked: string[] = []
  for (const item of value) {
    if (typeof item !== 'string' && typeof item !== 'number') refuse(field, rule)
    const wanted = String(item).trim().toLowerCase()
    const match = allowed.find((candidate) => String(candidate).toLowerCase() === wanted)
    if (match === undefined || picked.includes(match)) refuse(field, rule)
    picked.push(match)
  }
  return picked
}

/**
 * The buyer's choices checked against the product and its retailers, merged over `current`
 * (what the order holds now; a new slot holds none): a ladder of the product's sizes whose first
 * is `size`, retailers of the release, and a cap some accepted retailer's known price is within.
 */
export function checkSlotChoices(
  product: ChoiceProduct,
  retailers: readonly RetailerEntry[],
  size: string,
  request: SlotChoicesRequest,
  current: SlotChoices = { sizeLadder: null, retailerChoice: null, maxItemPriceCents: null }
): SlotChoices {
  let sizeLadder = current.sizeLadder
  if (request.sizes === null) sizeLadder = null
  else if (request.sizes !== undefined) {
    const ladder = pickList(
      request.sizes,
      sizesOf(product),
      MAX_SIZE_LADDER,
      'sizes',
      SIZE_LADDER_RULE
    )
    if (ladder[0].toLowerCase() !== size.toLowerCase()) refuse('sizes', SIZE_LADDER_RULE)
    sizeLadder = ladder.length > 1 ? ladder : null
  }

  let retailerChoice = current.retailerChoice
  if (request.retailers === null) retailerChoice = null
  else if (request.retailers !== undefined) {
    const keys = retailers.map((entry) => entry.retailer)
    retailerChoice = pickList(
      request.retailers,
      keys,
      keys.length,
      'retailers',
      RETAILER_CHOICE_RULE
    )
  }

  let maxItemPriceCents = current.maxItemPriceCents
  if (request.maxItemPriceCents === null) maxItemPriceCents = null
  else if (request.maxItemPriceCents !== undefined) {
    const cap = request.maxItemPriceCents
    if (
      typeof cap !== 'number' ||
      !Number.isInteger(cap) ||
      cap < MIN_ITEM_PRICE_CAP_CENTS ||
      cap > MAX_ITEM_PRICE_CAP_CENTS
    ) {
      refuse('maxItemPriceCents', PRICE_CAP_RULE)
    }
    maxItemPriceCents = cap
  }

  if (maxItemPriceCents !== null) {
    const accepted = retailers.filter(
      (entry) => retailerChoice === null || retailerChoice.includes(entry.retailer)
    )
    const prices = accepted.map((entry) => entry.priceCents)
    // A retailer whose price is not known yet may be within the cap: only known prices refuse.
    if (
      prices.length > 0 &&
      prices.every((price) => price !== null && price > maxItemPriceCents!)
    ) {
      const lowest = Math.min(...(prices as number[]))
      refuse(
        'maxItemPriceCents',
        `Your cap is below the price at every retailer you accept (the lowest is ${formatCents(lowest)}).`
      )
    }
  }
  return { sizeLadder, retailerChoice, maxItemPriceCents }
}

/** True when a request names any choice (so the product's retailers must be read). */
export function namesChoices(request: SlotChoicesRequest): boolean {
  return (
    request.sizes !== undefined ||
    request.retailers !== undefined ||
    request.maxItemPriceCents !== undefined
  )
}
