import { Box, Chip, LinearProgress, Tooltip, Typography } from '@mui/material'
import { SearchInput, useRecordContext, useTranslate, type SearchInputProps } from 'react-admin'
import { BRANDS as SHARED_BRANDS, ORDER_STATUSES } from '@shared/vocabulary'
import { useNow } from './useNow'

/** The list search box, with a translated hint of what it searches. */
export function Search({ hint, ...props }: SearchInputProps & { hint: string }) {
  const translate = useTranslate()
  return <SearchInput {...props} placeholder={translate(hint)} />
}

export const BRANDS = SHARED_BRANDS.map((brand) => brand.value)

export const STATUS_COLORS: Record<
  string,
  'default' | 'info' | 'warning' | 'success' | 'error' | 'secondary'
> = {
  pending: 'warning',
  processing: 'info',
  success: 'success',
  fail: 'error',
  cancelled: 'default',
}

export const STATUS_CHOICES = ORDER_STATUSES.map((id) => ({ id, name: `dropslot.status.${id}` }))

export function StatusChip({ status }: { status?: string }) {
  const translate = useTranslate()
  const record = useRecordContext()
  const value = status ?? (record?.status as string | undefined)
  if (!value) return null
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[value] ?? 'default'}
      label={translate(`dropslot.status.${value}`, { _: value })}
    />
  )
}
StatusChip.displayName = 'StatusChip'

/** A successful order whose fee was declined or needs the customer: money still owed. */
export function FeeDueChip() {
  const translate = useTranslate()
  const record = useRecordContext()
  if (!record?.feeDue) return null
  return (
    <Tooltip
      title={translate('dropslot.orders.fee_due_hint', {
        status: record.feeStatus,
        attempts: record.feeAttempts ?? 0,
      })}
    >
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        label={translate('dropslot.orders.fee_due')}
      />
    </Tooltip>
  )
}

/** Slots taken / total as a bar: red when nearly gone, so sell-outs stand out at a glance. */
export function SlotBar({ taken, total }: { taken?: number; total?: number }) {
  const record = useRecordContext()
  const usedTaken = taken ?? (record?.stockTaken as number) ?? 0
  const usedTotal = total ?? (record?.totalStock as number) ?? 0
  const ratio = usedTotal > 0 ? Math.min(1, usedTaken / usedTotal) : 1
  const color = ratio >= 0.95 ? 'error' : ratio >= 0.75 ? 'warning' : 'primary'
  return (
    <Tooltip title={`${Math.round(ratio * 100)}% taken`}>
      <Box sx={{ minWidth: 120 }}>
        <LinearProgress
          variant="determinate"
          value={ratio * 100}
          color={color}
          sx={{ height: 8, borderRadius: 4 }}
        />
        <Typography variant="caption" color="text.secondary">
          {usedTaken} / {usedTotal}
        </Typography>
      </Box>
    </Tooltip>
  )
}

export function TagChips({ tags }: { tags?: string }) {
  const record = useRecordContext()
  const value = tags ?? (record?.tags as string | undefined) ?? ''
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {value
        .split(',')
        .filter(Boolean)
        .map((tag) => (
          <Chip key={tag} size="small" label={tag} variant="outlined" />
        ))}
    </Box>
  )
}

/** "in 3h 12m" / "2d ago": what an ops person reads first at 6 a.m. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return ''
  const diff = new Date(iso).getTime() - now
  const abs = Math.abs(diff)
  const minutes = Math.round(abs / 60_000)
  let text: string
  if (minutes < 60) text = `${minutes}m`
  else if (minutes < 48 * 60) text = `${Math.floor(minutes / 60)}h ${minutes % 60}m`
  else text = `${Math.round(minutes / 1440)}d`
  return diff >= 0 ? `in ${text}` : `${text} ago`
}

export function ReleaseTime({ value }: { value?: string | null }) {
  const record = useRecordContext()
  const now = useNow(30_000)
  const iso = value ?? (record?.releaseAt as string | null | undefined)
  if (!iso) return <Typography variant="body2">—</Typography>
  const date = new Date(iso)
  const soon = date.getTime() > now && date.getTime() - now < 24 * 3600_000
  return (
    <Box>
      <Typography variant="body2">
        {date.toLocaleString(undefined, {
          weekday: 'short',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
        })}
      </Typography>
      <Typography variant="caption" color={soon ? 'warning.main' : 'text.secondary'}>
        {relativeTime(iso)}
      </Typography>
    </Box>
  )
}

export const money = (dollars: number | null | undefined) =>
  dollars === null || dollars === undefined
    ? '—'
    : dollars.toLocaleString(undefined, { style: 'currency', currency: 'USD' })

export const cents = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : money(value / 100)

export function shortId(id: unknown) {
  return String(id ?? '').slice(0, 8)
}

/** A time from the API in the reader's locale; a time the server has not got shows as a dash. */
export function localTime(iso: string | null | undefined, options?: Intl.DateTimeFormatOptions) {
  return iso ? new Date(iso).toLocaleString(undefined, options) : '—'
}
