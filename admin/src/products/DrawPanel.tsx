import { useCallback, useEffect, useState } from 'react'
import { Alert, Box, Button, Stack, Typography } from '@mui/material'
import { useNotify, useRecordContext, useTranslate } from 'react-admin'
import { dataProvider, type DrawView } from '../dataProvider'

/** The draw of a draw product: entries, refusals per rule, commitment, result and its proof. */
export function DrawPanel() {
  const record = useRecordContext()
  const translate = useTranslate()
  const notify = useNotify()
  const [view, setView] = useState<DrawView | null>(null)
  const [running, setRunning] = useState(false)
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
  const closed = record.entryClosesAt
    ? new Date(record.entryClosesAt).getTime() <= Date.now()
    : false

  async function run() {
    setRunning(true)
    try {
      const result = await dataProvider.runDraw(productId)
      notify(
        result.drawnNow
          ? translate('dropslot.products.draw_ran', {
              winners: result.winners.length,
              entries: result.entries,
            })
          : translate('dropslot.products.draw_ran_before'),
        { type: 'info' }
      )
      load()
    } catch (error) {
      notify((error as Error).message, { type: 'error' })
    } finally {
      setRunning(false)
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
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {translate('dropslot.products.draw_commitment')}: <code>{view.commitment}</code>
        </Typography>
        {view.seed ? (
          <>
            <Typography sx={{ overflowWrap: 'anywhere' }}>
              {translate('dropslot.products.draw_seed')}: <code>{view.seed}</code>
            </Typography>
            <Alert severity={view.verification?.winnersMatch ? 'success' : 'error'}>
              {translate(
                view.verification?.winnersMatch && view.verification.commitmentMatches
                  ? 'dropslot.products.draw_verified'
                  : 'dropslot.products.draw_not_verified'
              )}
            </Alert>
            <Typography variant="subtitle2">
              {translate('dropslot.products.draw_winners')}
            </Typography>
            <ol>
              {view.winners.map((entryId) => (
                <li key={entryId}>
                  <code>{entryId}</code>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <Typography color="text.secondary">
            {translate('dropslot.products.draw_not_run')}
          </Typography>
        )}
        <Stack direction="row" spacing={1}>
          {!view.seed && closed ? (
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
