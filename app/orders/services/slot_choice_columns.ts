/*
| An order's slot choices as stored (`orders.size_ladder`, `retailer_choice`,
| `max_item_price_cents`, migration 0960) and as read: JSON arrays in the two text columns, null
| for "only the slot's size" and "every retailer".
*/

export type SlotChoices = {
  /** The sizes in order, the first the order's `size`; null: only `size`. */
  sizeLadder: readonly string[] | null
  /** The retailer keys the buyer accepts; null: every retailer of the release. */
  retailerChoice: readonly string[] | null
  maxItemPriceCents: number | null
}

/** The stored columns of an order's choices. */
export type SlotChoiceColumns = {
  sizeLadder: string | null
  retailerChoice: string | null
  maxItemPriceCents: number | null
}

function listOf(text: string | null | undefined): string[] | null {
  if (!text) return null
  const parsed: unknown = JSON.parse(text)
  return Array.isArray(parsed) ? parsed.map(String) : null
}

export const slotChoiceColumns = {
  write(choices: SlotChoices): SlotChoiceColumns {
    return {
      sizeLadder: choices.sizeLadder ? JSON.stringify(choices.sizeLadder) : null,
      retailerChoice: choices.retailerChoice ? JSON.stringify(choices.retailerChoice) : null,
      maxItemPriceCents: choices.maxItemPriceCents,
    }
  },

  read(order: Partial<SlotChoiceColumns>): SlotChoices {
    return {
      sizeLadder: listOf(order.sizeLadder),
      retailerChoice: listOf(order.retailerChoice),
      maxItemPriceCents:
        order.maxItemPriceCents === null || order.maxItemPriceCents === undefined
          ? null
          : Number(order.maxItemPriceCents),
    }
  },

  /** The sizes to try, in order: the ladder, or the order's one size. */
  ladderOf(order: { size: string } & Partial<SlotChoiceColumns>): string[] {
    return listOf(order.sizeLadder) ?? [order.size]
  },
}
