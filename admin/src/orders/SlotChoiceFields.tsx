import { Typography } from '@mui/material'
import { Labeled, useRecordContext, useTranslate } from 'react-admin'
import { ladderWords, priceCapWords, retailerChoiceWords } from '@shared/slot_choices'
import type { AdminOrder } from '@shared/api/contract'

/** Beside the order's size: the sizes tried in order, the retailers accepted and the price cap. */
export function SlotChoiceFields() {
  const order = useRecordContext<AdminOrder>()
  const translate = useTranslate()
  if (!order) return null
  const fields: Array<[string, string]> = [
    ['dropslot.orders.slot_sizes', ladderWords(order.sizes)],
    ['dropslot.orders.slot_retailers', retailerChoiceWords(order.retailers)],
    [
      'dropslot.orders.slot_price_cap',
      priceCapWords(order.maxItemPriceCents) ?? translate('dropslot.orders.slot_no_cap'),
    ],
  ]
  return fields.map(([label, words]) => (
    <Labeled key={label} label={label}>
      <Typography variant="body2">{words}</Typography>
    </Labeled>
  ))
}
