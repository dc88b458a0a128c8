import {
  CardContent,
  Chip,
  Grid,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { Panel } from './Panel'
import { Link, useTranslate } from 'react-admin'
import { relativeTime } from '../components/common'
import type { DashboardSummary } from '@shared/api/contract'

export type HoldsSummary = DashboardSummary['holds']

function Count({
  label,
  value,
  tone,
  testId,
}: {
  label: string
  value: number
  tone?: string
  testId: string
}) {
  return (
    <Stack spacing={0.25}>
      <Typography variant="overline" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4" sx={{ fontWeight: 700, color: tone }} data-testid={testId}>
        {value}
      </Typography>
    </Stack>
  )
}

/**
 * The $1.00 card checks of orders still waiting for release day or their draw: how many have
 * no live hold now (red: each should be covered within a sweep), how many lapse within a day,
 * and the renewals that kept them live.
 */
export function HoldsCard({ holds }: { holds: HoldsSummary }) {
  const translate = useTranslate()
  const uncovered = Object.entries(holds.withoutLiveHoldByStatus).filter(([, count]) => count > 0)
  return (
    <Panel
      title={translate('dropslot.holds.title')}
      subheader={translate('dropslot.holds.subtitle', { smart_count: holds.waitingOrders })}
      testId="holds-card"
    >
      <CardContent sx={{ pt: 0 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <Count
              label={translate('dropslot.holds.without_live_hold')}
              value={holds.waitingWithoutLiveHold}
              tone={holds.waitingWithoutLiveHold > 0 ? 'error.main' : 'success.main'}
              testId="holds-without-live"
            />
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', mt: 0.5 }}>
              {uncovered.map(([status, count]) => (
                <Chip
                  key={status}
                  size="small"
                  variant="outlined"
                  label={`${translate(`dropslot.holds.status.${status}`, { _: status })}: ${count}`}
                />
              ))}
            </Stack>
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <Count
              label={translate('dropslot.holds.expiring')}
              value={holds.expiringWithin24h}
              tone={holds.expiringWithin24h > 0 ? 'warning.main' : undefined}
              testId="holds-expiring"
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <Count
              label={translate('dropslot.holds.renewed')}
              value={holds.renewals.last24h}
              testId="holds-renewed"
            />
            <Typography variant="caption" color="text.secondary">
              {translate('dropslot.holds.renewed_total', { smart_count: holds.renewals.total })}
            </Typography>
          </Grid>
        </Grid>
        {holds.renewals.recent.length > 0 && (
          <Table size="small" sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('dropslot.holds.col_order')}</TableCell>
                <TableCell>{translate('dropslot.holds.col_round')}</TableCell>
                <TableCell>{translate('dropslot.holds.col_renewed')}</TableCell>
                <TableCell>{translate('dropslot.holds.col_lapses')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {holds.renewals.recent.map((renewal) => (
                <TableRow key={`${renewal.orderId}-${renewal.round}-${renewal.at}`}>
                  <TableCell>
                    <Link to={`/orders/${renewal.orderId}/show`}>{renewal.orderNumber}</Link>
                  </TableCell>
                  <TableCell>{renewal.round ?? '—'}</TableCell>
                  <TableCell>{relativeTime(renewal.at)}</TableCell>
                  <TableCell>{relativeTime(renewal.expiresAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Panel>
  )
}
