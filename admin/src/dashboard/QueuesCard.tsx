import { useCallback, useEffect, useState } from 'react'
import {
  Alert,
  Button,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { Panel } from './Panel'
import { useDataProvider, useNotify, useTranslate } from 'react-admin'
import type { DropslotDataProvider, QueuesOverview } from '../dataProvider'

function age(seconds: number | null) {
  if (seconds === null) return '–'
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`
}

/**
 * The job queues on the dashboard: counts per queue (BullMQ), the work due in the tables, and
 * failed jobs an operator can retry or discard (both audited). Refreshes every 10 seconds.
 */
export function QueuesCard() {
  const translate = useTranslate()
  const notify = useNotify()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const [overview, setOverview] = useState<QueuesOverview | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(
    () =>
      dataProvider
        .queues()
        .then((data) => (setOverview(data), setError(null)))
        .catch((failure: Error) => setError(failure.message)),
    [dataProvider]
  )
  useEffect(() => {
    void load()
    const timer = setInterval(load, 10_000)
    return () => clearInterval(timer)
  }, [load])

  const act = async (queue: string, id: string, action: 'retry' | 'discard') => {
    try {
      await dataProvider.queueJob(queue, id, action)
      notify(`dropslot.queues.${action === 'retry' ? 'retried' : 'discarded'}`, { type: 'info' })
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
    }
    await load()
  }

  if (error) return <Alert severity="error">{error}</Alert>
  if (!overview) return null
  return (
    <Panel
      title={translate('dropslot.queues.title')}
      subheader={translate(`dropslot.queues.driver_${overview.driver}`)}
      testId="queues-card"
    >
      <CardContent>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('dropslot.queues.col_queue')}</TableCell>
              <TableCell align="right">{translate('dropslot.queues.col_waiting')}</TableCell>
              <TableCell align="right">{translate('dropslot.queues.col_active')}</TableCell>
              <TableCell align="right">{translate('dropslot.queues.col_delayed')}</TableCell>
              <TableCell align="right">{translate('dropslot.queues.col_failed')}</TableCell>
              <TableCell align="right">{translate('dropslot.queues.col_oldest')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {overview.queues.map((queue) => (
              <TableRow key={queue.queue}>
                <TableCell>{queue.queue}</TableCell>
                <TableCell align="right">{queue.waiting}</TableCell>
                <TableCell align="right">{queue.active}</TableCell>
                <TableCell align="right">{queue.delayed}</TableCell>
                <TableCell align="right">{queue.failed}</TableCell>
                <TableCell align="right">{age(queue.oldestWaitingSeconds)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell>{translate('dropslot.queues.holds_due')}</TableCell>
              <TableCell align="right">{overview.backlog.holds.due}</TableCell>
              <TableCell colSpan={3} />
              <TableCell align="right">{age(overview.backlog.holds.oldestSeconds)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>{translate('dropslot.queues.emails_due')}</TableCell>
              <TableCell align="right">{overview.backlog.emails.due}</TableCell>
              <TableCell colSpan={3} />
              <TableCell align="right">{age(overview.backlog.emails.oldestSeconds)}</TableCell>
            </TableRow>
          </TableBody>
        </Table>
        {overview.driver === 'bullmq' && (
          <>
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              {translate('dropslot.queues.failed_title')}
            </Typography>
            {overview.failed.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                {translate('dropslot.queues.none_failed')}
              </Typography>
            )}
            {overview.failed.map((job) => (
              <Stack
                key={`${job.queue}/${job.id}`}
                direction="row"
                spacing={1}
                sx={{ py: 0.5, alignItems: 'center' }}
              >
                <Typography variant="body2" sx={{ flex: 1 }}>
                  {job.queue} · {job.name} · {JSON.stringify(job.payload)} · {job.error}
                </Typography>
                <Button size="small" onClick={() => act(job.queue, job.id, 'retry')}>
                  {translate('dropslot.queues.retry')}
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => act(job.queue, job.id, 'discard')}
                >
                  {translate('dropslot.queues.discard')}
                </Button>
              </Stack>
            ))}
          </>
        )}
      </CardContent>
    </Panel>
  )
}
