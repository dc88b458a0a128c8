import { Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material'
import {
  ArrayInput,
  DateTimeInput,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  maxValue,
  minValue,
  regex,
  required,
  useRecordContext,
  type Validator,
} from 'react-admin'
import type { ProductRetailer } from '@shared/api/contract'
import { RETAILERS } from '@shared/vocabulary'
import { cents, localTime } from '../components/common'

/*
| The retailers a product releases at, in order (the first is its seller, whose signed e-mail
| proves its orders): the form's list, the list's names and the show page's table.
*/

const MAX_RETAILERS = 10
const RETAILER_CHOICES = RETAILERS.map((retailer) => ({ id: retailer.value, name: retailer.label }))

const listRule: Validator = (value) => {
  const list = (Array.isArray(value) ? value : []) as { retailer?: string }[]
  if (list.length > MAX_RETAILERS) return `At most ${MAX_RETAILERS} retailers`
  const names = list.map((entry) => entry.retailer).filter(Boolean)
  return new Set(names).size === names.length ? undefined : 'Each retailer may be listed once'
}

export function RetailersInput() {
  return (
    <ArrayInput
      source="retailers"
      label="Retailers"
      helperText="dropslot.products.retailer_hint"
      validate={listRule}
    >
      <SimpleFormIterator inline>
        <SelectInput
          source="retailer"
          label="Retailer"
          choices={RETAILER_CHOICES}
          validate={required()}
        />
        <NumberInput
          source="priceCents"
          label="Retail price (cents, shipping included)"
          validate={[required(), minValue(0), maxValue(10_000_000)]}
          step={1}
        />
        <DateTimeInput source="releaseAt" label="Own release time (if not the product's)" />
        <TextInput
          source="url"
          label="Product page (https://)"
          validate={regex(/^https:\/\/\S+$/, 'Use an https:// address')}
        />
      </SimpleFormIterator>
    </ArrayInput>
  )
}

function retailersOf(record: Record<string, unknown> | undefined): ProductRetailer[] {
  return Array.isArray(record?.retailers) ? (record.retailers as ProductRetailer[]) : []
}

/** The list's column: the names, in order. */
export function RetailerNames() {
  const names = retailersOf(useRecordContext()).map((entry) => entry.name)
  return <Typography variant="body2">{names.length ? names.join(', ') : '—'}</Typography>
}

/** The show page: each retailer with its time, retail price and page. */
export function RetailersTable() {
  const record = useRecordContext()
  const list = retailersOf(record)
  if (list.length === 0) return <Typography variant="body2">—</Typography>
  return (
    <Table size="small" aria-label="Retailers">
      <TableHead>
        <TableRow>
          <TableCell>Retailer</TableCell>
          <TableCell>Release</TableCell>
          <TableCell align="right">Retail price</TableCell>
          <TableCell>Product page</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {list.map((entry) => (
          <TableRow key={entry.retailer}>
            <TableCell>{entry.name}</TableCell>
            <TableCell>
              {entry.releaseAt
                ? localTime(entry.releaseAt)
                : `${localTime(record?.releaseAt as string | null)} (the product's)`}
            </TableCell>
            <TableCell align="right">{cents(entry.priceCents)}</TableCell>
            <TableCell>
              {entry.url ? (
                <Link href={entry.url} target="_blank" rel="noreferrer">
                  {new URL(entry.url).host}
                </Link>
              ) : (
                '—'
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/**
 * What the form sends: an empty list as `retailer: null` (no retailer, as before the list);
 * otherwise the list, and `retailer` is left to the server (the list's first).
 */
export function withRetailerList(data: Record<string, unknown>): Record<string, unknown> {
  const { retailers } = data
  const rest = Object.fromEntries(
    Object.entries(data).filter(([field]) => field !== 'retailer' && field !== 'retailers')
  )
  if (!Array.isArray(retailers) || retailers.length === 0) return { ...rest, retailer: null }
  return { ...rest, retailers }
}
