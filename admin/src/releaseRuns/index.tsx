import { useEffect, useState } from 'react'
import {
  Alert,
  Box,
  Chip,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Switch,
  TextField as MuiTextField,
  Typography,
} from '@mui/material'
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch'
import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import {
  Button,
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  TextField,
  TopToolbar,
  useDataProvider,
  useGetList,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin'
import type { DropslotDataProvider, QueuedReleaseRun, ReleaseRunResult } from '../dataProvider'

/** Products whose release time has come: what a run can work on. */
function useReleasedProducts(enabled: boolean) {
  const { data } = useGetList(
    'products',
    {
      filter: { upcoming: false },
      sort: { field: 'releaseAt', order: 'DESC' },
      pagination: { page: 1, perPage: 100 },
    },
    { enabled }
  )
  return (data ?? []).filter((product) => product.releaseAt)
}

/** While a queued run has not finished, the runs list refreshes every 2 seconds for 2 minutes. */
function useFollowQueuedRun(active: boolean) {
  const refresh = useRefresh()
  useEffect(() => {
    if (!active) return
    const timer = setInterval(refresh, 2000)
    const stop = setTimeout(() => clearInterval(timer), 120_000)
    return () => {
      clearInterval(timer)
      clearTimeout(stop)
    }
  }, [active, refresh])
}

function RunResult({ result }: { result: ReleaseRunResult | QueuedReleaseRun }) {
  const translate = useTranslate()
  useFollowQueuedRun('queued' in result)
  if ('queued' in result) {
    return (
      <Alert severity="info" data-testid="release-run-result">
        {translate('dropslot.release_runs.result_queued')}
      </Alert>
    )
  }
  if (result.status === 'failed') {
    return (
      <Alert severity="error" data-testid="release-run-result">
        {translate('dropslot.release_runs.result_failed', { id: result.id, error: result.error })}
      </Alert>
    )
  }
  if (result.dryRun && result.report.plan) {
    return (
      <Alert severity="info" data-testid="release-run-result">
        {translate('dropslot.release_runs.result_dry', { id: result.id, ...result.report.plan })}
      </Alert>
    )
  }
  return (
    <Alert severity="success" data-testid="release-run-result">
      {translate('dropslot.release_runs.result', {
        id: result.id,
        submitted: result.ordersSubmitted,
        succeeded: result.ordersSucceeded,
        failed: result.ordersFailed,
      })}
      <br />
      {translate('dropslot.release_runs.result_fees', {
        charged: result.feesCharged,
        due: result.feesDue,
      })}
      {result.report.awaitingResult > 0 && (
        <>
          <br />
          {translate('dropslot.release_runs.result_awaiting', {
            count: result.report.awaitingResult,
          })}
        </>
      )}
      {result.report.awaitingHold > 0 && (
        <>
          <br />
          {translate('dropslot.release_runs.result_awaiting_hold', {
            count: result.report.awaitingHold,
          })}
        </>
      )}
    </Alert>
  )
}

/**
 * "Run release now": the same run as `npx dropslot release:run [--product] [--dry-run]`, for
 * one released product or all of them. The run happens within the request; its counts are shown
 * in the dialog and the list refreshes.
 */
export function RunReleaseButton() {
  const translate = useTranslate()
  const notify = useNotify()
  const refresh = useRefresh()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const [open, setOpen] = useState(false)
  const [productId, setProductId] = useState<number | ''>('')
  const [dryRun, setDryRun] = useState(false)
  const [confirmation, setConfirmation] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ReleaseRunResult | QueuedReleaseRun | null>(null)
  const products = useReleasedProducts(open)
  // A real run moves money: the person types what runs (the product's id, or "all"), the way
  // the API requires it, so a stray click or a wrong product choice runs nothing.
  const expected = productId === '' ? 'all' : String(productId)
  const confirmed = dryRun || confirmation.trim() === expected
  const chosenTitle = products.find((product) => product.id === productId)?.productTitle ?? ''

  const close = () => {
    if (busy) return
    setOpen(false)
    setResult(null)
    setConfirmation('')
  }
  const submit = async () => {
    setBusy(true)
    try {
      const run = await dataProvider.runRelease({
        productId: productId === '' ? null : productId,
        dryRun,
        ...(dryRun ? {} : { confirm: confirmation.trim() }),
      })
      setResult(run)
      refresh()
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Button label="dropslot.release_runs.run" onClick={() => setOpen(true)}>
        <PlayArrowIcon />
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('dropslot.release_runs.run_title')}</DialogTitle>
        <DialogContent>
          {result ? (
            <RunResult result={result} />
          ) : (
            <>
              <DialogContentText>{translate('dropslot.release_runs.run_body')}</DialogContentText>
              <MuiTextField
                select
                fullWidth
                margin="normal"
                label={translate('dropslot.release_runs.product')}
                value={productId}
                onChange={(event) => {
                  setProductId(event.target.value === '' ? '' : Number(event.target.value))
                  setConfirmation('')
                }}
              >
                <MenuItem value="">{translate('dropslot.release_runs.all_released')}</MenuItem>
                {products.map((product) => (
                  <MenuItem key={product.id} value={product.id}>
                    {product.productTitle}
                  </MenuItem>
                ))}
              </MuiTextField>
              <FormControlLabel
                control={
                  <Switch checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} />
                }
                label={translate('dropslot.release_runs.dry_run')}
              />
              <Typography variant="caption" color="text.secondary" component="p">
                {translate(
                  dryRun ? 'dropslot.release_runs.dry_run_hint' : 'dropslot.release_runs.real_hint'
                )}
              </Typography>
              {!dryRun && (
                <MuiTextField
                  fullWidth
                  margin="normal"
                  autoComplete="off"
                  label={translate('dropslot.release_runs.confirm_label', { expected })}
                  helperText={
                    productId === ''
                      ? translate('dropslot.release_runs.confirm_hint_all')
                      : translate('dropslot.release_runs.confirm_hint_product', {
                          title: chosenTitle,
                          expected,
                        })
                  }
                  value={confirmation}
                  onChange={(event) => setConfirmation(event.target.value)}
                />
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={busy}>
            {translate(result ? 'dropslot.release_runs.close' : 'dropslot.common.cancel')}
          </MuiButton>
          {!result && (
            <MuiButton variant="contained" onClick={submit} disabled={busy || !confirmed}>
              {translate(
                busy
                  ? 'dropslot.release_runs.running'
                  : dryRun
                    ? 'dropslot.release_runs.confirm_dry'
                    : 'dropslot.release_runs.confirm'
              )}
            </MuiButton>
          )}
        </DialogActions>
      </Dialog>
    </>
  )
}

function Empty() {
  const translate = useTranslate()
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">{translate('dropslot.release_runs.empty')}</Typography>
    </Box>
  )
}

const ReleaseRunActions = () => (
  <TopToolbar>
    <RunReleaseButton />
  </TopToolbar>
)

/** Release runs, as the release-day module records them (GET /api/admin/release-runs). */
const RUN_STATUS_COLORS: Record<string, 'default' | 'info' | 'success' | 'error'> = {
  running: 'info',
  finished: 'success',
  failed: 'error',
  interrupted: 'error',
}

export function ReleaseRunList() {
  const translate = useTranslate()
  return (
    <List
      sort={{ field: 'startedAt', order: 'DESC' }}
      // The toolbar (and its run dialog) stays mounted when the first run fills an empty list.
      empty={false}
      exporter={false}
      actions={<ReleaseRunActions />}
    >
      <Datagrid
        bulkActionButtons={false}
        empty={<Empty />}
        rowSx={(record) =>
          record.status === 'failed' || record.status === 'interrupted'
            ? { backgroundColor: 'rgba(211, 47, 47, 0.08)' }
            : {}
        }
      >
        <DateField source="startedAt" showTime />
        <FunctionField
          source="status"
          render={(record) => (
            <Chip
              size="small"
              color={RUN_STATUS_COLORS[record.status] ?? 'default'}
              label={translate(`dropslot.release_runs.status_${record.status}`, {
                _: record.status,
              })}
            />
          )}
        />
        <FunctionField
          source="productId"
          label="dropslot.release_runs.product"
          sortable={false}
          render={(record) =>
            record.productId
              ? `#${record.productId} ${record.productTitle ?? ''}`
              : translate('dropslot.release_runs.all_released')
          }
        />
        <TextField source="trigger" />
        <FunctionField
          source="dryRun"
          render={(record) => (record.dryRun ? 'dry run' : '')}
          sortable={false}
        />
        <TextField source="engine" />
        <NumberField source="ordersSubmitted" label="dropslot.release_runs.submitted" />
        <NumberField
          source="ordersAwaiting"
          label="dropslot.release_runs.awaiting"
          sortable={false}
        />
        <NumberField
          source="ordersSucceeded"
          label="dropslot.release_runs.succeeded"
          sortable={false}
        />
        <NumberField source="ordersFailed" label="dropslot.release_runs.failed" sortable={false} />
        <NumberField
          source="ordersSettling"
          label="dropslot.release_runs.settling"
          sortable={false}
        />
        <NumberField source="feesDue" label="dropslot.release_runs.fees_due" sortable={false} />
        <FunctionField
          label="dropslot.release_runs.took"
          render={(record) =>
            record.durationSeconds === null || record.durationSeconds === undefined
              ? '…'
              : `${record.durationSeconds} s`
          }
        />
        <FunctionField
          source="error"
          label="dropslot.release_runs.error"
          sortable={false}
          render={(record) =>
            record.error ? (
              <Typography variant="body2" color="error" sx={{ maxWidth: 360 }}>
                {record.error}
              </Typography>
            ) : (
              ''
            )
          }
        />
      </Datagrid>
    </List>
  )
}

export default { list: ReleaseRunList, icon: RocketLaunchIcon }
