/** The words of an order's slot choices (`dropslot.orders.*`, merged into the console's messages). */
export const slotChoiceMessages = {
  slot_sizes: 'Sizes (in order)',
  slot_retailers: 'Retailers',
  slot_price_cap: 'Price cap',
  slot_no_cap: 'No cap',
}
