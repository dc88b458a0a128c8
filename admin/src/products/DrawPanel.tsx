import { useCallback, useEffect, useState } from 'react'
import { Alert, Box, Button, Stack, Typography } from '@mui/material'
import { useNotify, useRecordContext, useTranslate } from 'react-admin'
import { dataProvider, type DrawView } from '../dataProvider'
import { useNow } from '../components/useNow'

/**
 * The draw of a draw product: entries, refusals per rule, the commitment, the beacon round (and
 * whether the draw waits for it), the result with its alternates, and the proof's checks.
 */
export function DrawPanel() {
  const record = useRecordContext()
  const translate = useTranslate()
  const notify = useNotify()
  const [view, setView] = useState<DrawView | null>(null)
  const [running, setRunning] = useState(false)
  const now = useNow(30_000)
  const productId = Number(record?.id)

  const load = useCallback(() => {
    if (!productId || record?.mode !== 'draw') return
    dataProvider
      .draw(productId)
      .then(setView)
      .catch((error: Error) => notify(error.message, { type: 'error' }))
  }, [productId, record?.mode, notify])
  useEffect(load, [load])

  if (record?.mode !== 'draw' || !view) return null
  const closed = record.entryClosesAt ? new Date(record.entryClosesAt).getTime() <= now : false
  const drawn = view.status === 'drawn'
  const failed = view.verification.checks.filter((check) => check.status === 'fail')

  async function run() {
    setRunning(true)
    try {
      const result = await dataProvider.runDraw(productId)
      notify(
        result.drawnNow
          ? translate('dropslot.products.draw_ran', {
              winners: result.winners.length,
              entries: result.entries,
              round: result.round,
            })
          : translate('dropslot.products.draw_ran_before'),
        { type: 'info' }
      )
    } catch (error) {
      notify((error as Error).message, { type: 'error' })
    } finally {
      setRunning(false)
      load()
    }
  }

  return (
    <Box sx={{ my: 2 }} data-testid="draw-panel">
      <Typography variant="h6">{translate('dropslot.products.draw_title')}</Typography>
      <Stack spacing={1}>
        <Typography>
          {translate('dropslot.products.draw_entries')}: {view.entryCount}
        </Typography>
        <Typography>{translate('dropslot.products.draw_blocked', view.blocked)}</Typography>
        {view.commitment ? (
          <Typography sx={{ overflowWrap: 'anywhere' }}>
            {translate('dropslot.products.draw_commitment')}: <code>{view.commitment.digest}</code>
          </Typography>
        ) : (
          <Typography color="text.secondary">
            {translate('dropslot.products.draw_not_committed')}
          </Typography>
        )}
        {view.beacon ? (
          <Typography>
            {translate('dropslot.products.draw_beacon', {
              round: view.beacon.round,
              time: view.beaconDueAt ? new Date(view.beaconDueAt).toLocaleString() : '',
            })}
          </Typography>
        ) : null}
        {view.waitingForBeacon ? (
          <Alert severity="warning" data-testid="draw-beacon-waiting">
            {translate('dropslot.products.draw_beacon_waiting', {
              round: view.beacon?.round,
              due: view.beaconDueAt ? new Date(view.beaconDueAt).toLocaleString() : '',
              minutes: view.beaconWait?.lateMinutes ?? 0,
              tried: view.beaconCheckedAt ? new Date(view.beaconCheckedAt).toLocaleString() : '',
              reason: view.beaconError ?? '',
              id: productId,
            })}
          </Alert>
        ) : null}
        {view.entriesRoot ? (
          <Typography sx={{ overflowWrap: 'anywhere' }}>
            {translate('dropslot.products.draw_root', { root: view.entriesRoot })}
          </Typography>
        ) : null}
        {drawn ? (
          <>
            <Typography sx={{ overflowWrap: 'anywhere' }}>
              {translate('dropslot.products.draw_seed')}: <code>{view.seed}</code>
            </Typography>
            <Alert severity={view.verification.ok ? 'success' : 'error'}>
              {view.verification.ok
                ? translate('dropslot.products.draw_verified')
                : translate('dropslot.products.draw_not_verified', {
                    steps: failed.map((check) => check.detail).join(' '),
                  })}
            </Alert>
            <Typography variant="subtitle2">
              {translate('dropslot.products.draw_winners')}
            </Typography>
            <ol data-testid="draw-winners">
              {view.winners.map((entryId) => (
                <li key={entryId}>
                  <code>{entryId}</code>
                </li>
              ))}
            </ol>
            {view.alternates.length ? (
              <>
                <Typography variant="subtitle2">
                  {translate('dropslot.products.draw_alternates')}
                </Typography>
                <ol data-testid="draw-alternates">
                  {view.alternates.map((entryId) => (
                    <li key={entryId}>
                      <code>{entryId}</code>
                    </li>
                  ))}
                </ol>
              </>
            ) : null}
            <Typography color="text.secondary">
              {translate(
                view.settled
                  ? 'dropslot.products.draw_settled'
                  : 'dropslot.products.draw_not_settled'
              )}
            </Typography>
          </>
        ) : (
          <Typography color="text.secondary">
            {translate('dropslot.products.draw_not_run')}
          </Typography>
        )}
        <Stack direction="row" spacing={1}>
          {!drawn && closed ? (
            <Button variant="contained" disabled={running} onClick={() => void run()}>
              {translate('dropslot.products.draw_run')}
            </Button>
          ) : null}
          <Button href={`/product/${productId}/draw`} target="_blank" rel="noreferrer">
            {translate('dropslot.products.draw_proof')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  )
}
