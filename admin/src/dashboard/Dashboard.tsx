import { useEffect, useState } from 'react'
import {
  Alert,
  Box,
  Card,
  CardContent,
  Grid,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material'
import { Link, Title, useDataProvider, useTranslate } from 'react-admin'
import type { DropslotDataProvider } from '../dataProvider'
import { SlotBar, cents, localTime, relativeTime } from '../components/common'
import { QueuesCard } from './QueuesCard'
import { HoldsCard } from './HoldsCard'
import { OrdersByDay, RecentReleases, StatusPie } from './OrderCharts'
import { UpcomingTable } from './UpcomingTable'
import { MailboxNotice } from './MailboxNotice'
import type { IncidentRecord } from '../incidents'
import type { DashboardSummary } from '@shared/api/contract'

type Summary = DashboardSummary

/** The alert incidents open now, at the top of the release desk, each linked to its page. */
function OpenIncidents({ incidents }: { incidents: IncidentRecord[] }) {
  const translate = useTranslate()
  if (incidents.length === 0) return null
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="open-incidents">
      <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
        {translate('dropslot.incidents.open_now', { smart_count: incidents.length })}
      </Typography>
      <Stack component="ul" sx={{ m: 0, pl: 2 }} spacing={0.5}>
        {incidents.map((incident) => (
          <li key={incident.id}>
            <Link to={`/incidents/${incident.id}/show`}>{incident.title}</Link>{' '}
            <Typography component="span" variant="caption" color="text.secondary">
              {translate('dropslot.incidents.since', {
                time: localTime(incident.openedAt),
              })}
            </Typography>
          </li>
        ))}
      </Stack>
    </Alert>
  )
}

function Kpi({
  label,
  value,
  hint,
  tone,
}: {
  label: string
  value: string
  hint?: string
  tone?: string
}) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" sx={{ fontWeight: 700, color: tone }}>
          {value}
        </Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  )
}

function useSummary() {
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const [summary, setSummary] = useState<Summary | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let alive = true
    const load = () =>
      dataProvider
        .dashboard()
        .then((data: Summary) => alive && (setSummary(data), setError(null)))
        .catch((failure: Error) => alive && setError(failure.message))
    load()
    // Release mornings move fast: refresh every 30 seconds.
    const timer = setInterval(load, 30_000)
    return () => {
      alive = false
      clearInterval(timer)
    }
  }, [dataProvider])
  return { summary, error }
}

/** A mailbox nobody could read for 5 minutes, and the review list waiting, on top. */
function MailIntakeNotice({ mail }: { mail: Summary['mailIntake'] }) {
  if (!mail?.domain) return null
  const unreadable = mail.unreadable.length > 0
  if (!unreadable && mail.inReview === 0 && mail.awaitingMailOverdue.length === 0) return null
  return (
    <Alert severity={unreadable ? 'error' : 'warning'} sx={{ mb: 2 }}>
      {unreadable
        ? `Mail intake unreadable for 5 minutes (${mail.unreadable.join(', ')}): retailers' confirmations and cancellations are not being read. `
        : ''}
      {mail.inReview > 0 ? (
        <Link to="/mail-messages?filter=%7B%22action%22%3A%22review%22%7D">
          {mail.inReview} retailer e-mail(s) wait in review.
        </Link>
      ) : null}
      {mail.awaitingMailOverdue.length > 0
        ? ` ${mail.awaitingMailOverdue.length} bot success(es) still wait for the retailer's e-mail.`
        : ''}
    </Alert>
  )
}

export function Dashboard() {
  const translate = useTranslate()
  const { summary, error } = useSummary()
  if (error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    )
  if (!summary) return <LinearProgress sx={{ m: 2 }} />

  const next = summary.upcoming[0]

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Title title="dropslot.dashboard.title" />
      <OpenIncidents incidents={summary.openIncidents ?? []} />
      <MailIntakeNotice mail={summary.mailIntake} />
      <MailboxNotice mail={summary.outgoingMail} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card
            sx={{
              height: '100%',
              bgcolor: 'grey.900',
              color: 'common.white',
              backgroundImage: 'linear-gradient(135deg, #111827 0%, #1f2937 100%)',
            }}
          >
            <CardContent>
              <Typography variant="overline" sx={{ color: '#fbbf24' }}>
                {translate('dropslot.dashboard.next_release')}
              </Typography>
              {next ? (
                <>
                  <Typography variant="h5" sx={{ fontWeight: 700 }}>
                    {next.productTitle}
                  </Typography>
                  <Typography variant="h6" sx={{ color: '#fbbf24' }}>
                    {relativeTime(next.releaseAt)}
                  </Typography>
                  <Typography variant="body2" sx={{ opacity: 0.8, mb: 1 }}>
                    {localTime(next.releaseAt)} ·{' '}
                    {translate('dropslot.dashboard.active_count', {
                      smart_count: next.activeOrders ?? 0,
                    })}
                  </Typography>
                  <SlotBar taken={next.stockTaken} total={next.totalStock} />
                </>
              ) : (
                <Typography>{translate('dropslot.dashboard.no_upcoming')}</Typography>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Kpi
            label={translate('dropslot.dashboard.active_orders')}
            value={String(summary.activeOrders)}
            hint={translate('dropslot.dashboard.active_hint', {
              pending: summary.ordersByStatus.pending ?? 0,
              processing: summary.ordersByStatus.processing ?? 0,
            })}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Kpi
            label={translate('dropslot.dashboard.fees_captured')}
            value={cents(summary.fees.capturedCents)}
            hint={translate('dropslot.dashboard.fees_captured_hint', {
              refunded: cents(summary.fees.refundedCents),
              net: cents(summary.fees.netCents),
            })}
            tone="success.main"
          />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Kpi
            label={translate('dropslot.dashboard.fees_due')}
            value={cents(summary.fees.dueCents)}
            hint={`${translate('dropslot.dashboard.fees_due_hint', {
              smart_count: summary.fees.dueOrders,
            })} · ${translate('dropslot.dashboard.holds_open', {
              smart_count: summary.fees.holdsOpen,
            })}`}
            tone={summary.fees.dueCents > 0 ? 'warning.main' : undefined}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Stack spacing={1} sx={{ height: '100%' }}>
            <Kpi
              label={translate('dropslot.dashboard.customers')}
              value={String(summary.totals.customers)}
              hint={translate('dropslot.dashboard.on_newsletter', {
                count: summary.totals.subscribers,
              })}
            />
            <Card variant="outlined">
              <CardContent sx={{ 'py': 1, '&:last-child': { pb: 1 } }}>
                <Link
                  to={{
                    pathname: '/emails',
                    search: `?filter=${encodeURIComponent(JSON.stringify({ status: ['failed'] }))}`,
                  }}
                >
                  <Typography
                    variant="body2"
                    color={summary.totals.emailsFailed ? 'error' : 'text.secondary'}
                  >
                    {summary.totals.emailsFailed}{' '}
                    {translate('dropslot.dashboard.failed_emails').toLowerCase()}
                  </Typography>
                </Link>
              </CardContent>
            </Card>
          </Stack>
        </Grid>

        <Grid size={{ xs: 12, md: 7 }}>
          <UpcomingTable upcoming={summary.upcoming} />
        </Grid>

        <Grid size={{ xs: 12, md: 5 }}>
          <StatusPie counts={summary.ordersByStatus} />
        </Grid>

        <Grid size={{ xs: 12, md: 7 }}>
          <OrdersByDay rows={summary.ordersByDay} />
        </Grid>

        <Grid size={{ xs: 12, md: 5 }}>
          <RecentReleases releases={summary.recentReleases} />
        </Grid>
      </Grid>
      <Box sx={{ mt: 2 }}>
        <HoldsCard holds={summary.holds} />
      </Box>
      <Box sx={{ mt: 2 }}>
        <QueuesCard />
      </Box>
      <Typography variant="body2" sx={{ mt: 2 }} data-testid="last-release-run">
        <Link to="/release-runs">
          {summary.lastReleaseRun
            ? translate('dropslot.release_runs.last', {
                id: summary.lastReleaseRun.id,
                status: summary.lastReleaseRun.status,
                when: relativeTime(
                  summary.lastReleaseRun.finishedAt ?? summary.lastReleaseRun.startedAt
                ),
                submitted: summary.lastReleaseRun.ordersSubmitted,
                succeeded: summary.lastReleaseRun.ordersSucceeded,
                failed: summary.lastReleaseRun.ordersFailed,
              })
            : translate('dropslot.release_runs.none_yet')}
        </Link>
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {translate('dropslot.dashboard.updated', {
          time: new Date(summary.generatedAt).toLocaleTimeString(),
        })}
      </Typography>
    </Box>
  )
}
