import { useEffect, useState } from 'react'
import { Alert, Box, Stack, Typography } from '@mui/material'
import { useRecordContext, useTranslate } from 'react-admin'
import { httpClient } from '../http'
import type { LineFigures } from '@shared/api/contract'
import { API_URL } from '../dataProvider'
import { localTime } from '../components/common'

type Figures = LineFigures

/** The waiting room of a first-come drop: people in line, let through, and the pace. */
export function QueuePanel() {
  const record = useRecordContext()
  const translate = useTranslate()
  const [figures, setFigures] = useState<Figures | null>(null)
  useEffect(() => {
    if (!record?.queue) return
    const load = () =>
      httpClient(`${API_URL}/waiting-rooms/${record.id}`)
        .then(({ json }) => setFigures(json as Figures))
        .catch(() => setFigures(null))
    void load()
    const timer = setInterval(load, 5000)
    return () => clearInterval(timer)
  }, [record?.id, record?.queue])
  if (!record?.queue || !figures) return null
  return (
    <Box sx={{ my: 2 }} data-testid="queue-panel">
      <Typography variant="h6">{translate('dropslot.products.queue_title')}</Typography>
      <Stack spacing={0.5}>
        <Typography>
          {translate('dropslot.products.queue_opens', {
            time: localTime(figures.opensAt),
            minutes: figures.minutes,
          })}
        </Typography>
        <Typography>
          {translate('dropslot.products.queue_figures', {
            inLine: figures.inLine,
            letThrough: figures.letThrough,
            waiting: figures.waiting,
            rate: figures.letThroughPerMinute,
          })}
        </Typography>
        <Typography>
          {translate('dropslot.products.queue_passes', { spent: figures.passesSpent })}
        </Typography>
        {figures.round ? (
          <Typography>
            {translate('dropslot.products.queue_beacon', {
              round: figures.round,
              state: translate(
                figures.ordered
                  ? 'dropslot.products.queue_ordered'
                  : 'dropslot.products.queue_not_ordered'
              ),
            })}
          </Typography>
        ) : null}
        {figures.beaconWait ? (
          <Alert severity="warning" data-testid="queue-beacon-late">
            {translate('dropslot.products.queue_beacon_waiting', {
              round: figures.beaconWait.round,
              due: localTime(figures.beaconWait.dueAt),
              minutes: figures.beaconWait.lateMinutes,
              tried: figures.beaconWait.lastTriedAt
                ? localTime(figures.beaconWait.lastTriedAt)
                : '',
              reason: figures.beaconWait.lastError,
            })}
          </Alert>
        ) : null}
      </Stack>
    </Box>
  )
}
