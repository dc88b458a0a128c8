import { formatCents } from './pricing.js'
import { retailerName } from './vocabulary.js'

/*
| A slot's choices (docs/storefront-and-money.md, "One slot, every chance"): the sizes to try in
| order (the buyer's size first), the retailers the buyer accepts (every one the release drops at
| when none are named) and the most the buyer will pay the retailer for the item with shipping.
| One slot of stock, one $1.00 check and at most one fee, however many sizes and retailers.
*/

/** The most sizes a slot tries, the buyer's own size included. */
export const MAX_SIZE_LADDER = 5

/** A price cap is whole cents from $1.00 to $100,000.00. */
export const MIN_ITEM_PRICE_CAP_CENTS = 100
export const MAX_ITEM_PRICE_CAP_CENTS = 10_000_000

export const SIZE_LADDER_RULE = `Choose up to ${MAX_SIZE_LADDER} sizes of this product, your size first, each once.`
export const RETAILER_CHOICE_RULE = 'Choose one or more of the retailers this release drops at.'
export const PRICE_CAP_RULE = `Enter the most you will pay the retailer, from ${formatCents(MIN_ITEM_PRICE_CAP_CENTS)} to ${formatCents(MAX_ITEM_PRICE_CAP_CENTS)}.`

/** The ladder in words: `10, then 10.5, then 9.5`. */
export function ladderWords(sizes: readonly string[]): string {
  return sizes.map((size) => size.toUpperCase()).join(', then ')
}

/** The cap in words, or null without one. */
export function priceCapWords(maxItemPriceCents: number | null): string | null {
  return maxItemPriceCents === null
    ? null
    : `Up to ${formatCents(maxItemPriceCents)} for the item with shipping`
}

/** The retailers accepted, in words (`every retailer` when the buyer named none). */
export function retailerChoiceWords(accepted: readonly string[] | null): string {
  return accepted === null ? 'Every retailer of the release' : accepted.map(retailerName).join(', ')
}
