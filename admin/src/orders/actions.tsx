import { useState } from 'react'
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  TextField as MuiTextField,
} from '@mui/material'
import MailIcon from '@mui/icons-material/ForwardToInbox'
import DownloadIcon from '@mui/icons-material/Download'
import BlockIcon from '@mui/icons-material/Block'
import UndoIcon from '@mui/icons-material/Undo'
import {
  Button,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUnselectAll,
} from 'react-admin'
import { ACO_FORMATS, type AcoFormat, type DropslotDataProvider } from '../dataProvider'
import { ReasonDialog } from './ReasonDialog'

export function useAction() {
  const notify = useNotify()
  const refresh = useRefresh()
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<unknown>, success: string, args = {}) => {
    setBusy(true)
    try {
      await work()
      notify(success, { type: 'success', messageArgs: args })
      refresh()
      return true
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' })
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, run }
}

/**
 * Cancels a pending order (the REST delete): slot back, hold released, row kept as Cancelled.
 * Orders being processed or with a result cannot be cancelled; the server says so too.
 */
export function CancelOrderButton() {
  const record = useRecordContext()
  const translate = useTranslate()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const { busy, run } = useAction()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  if (!record || record.status !== 'pending') return null
  const submit = async () => {
    const ok = await run(
      () => dataProvider.cancelOrder(record.id, reason.trim() || undefined),
      'dropslot.orders.cancelled'
    )
    if (ok) setOpen(false)
  }
  return (
    <>
      <Button label="dropslot.orders.cancel" color="warning" onClick={() => setOpen(true)}>
        <BlockIcon />
      </Button>
      <ReasonDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate('dropslot.orders.cancel_title')}
        body={translate('dropslot.orders.cancel_body')}
        reasonLabel={translate('dropslot.orders.cancel_reason')}
        reason={reason}
        onReason={setReason}
        dismissLabel={translate('dropslot.orders.keep')}
        confirmLabel={translate('dropslot.orders.cancel')}
        confirmColor="warning"
        confirmDisabled={busy}
        onConfirm={submit}
      />
    </>
  )
}

export function ResendEmailButton() {
  const record = useRecordContext()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const { busy, run } = useAction()
  if (!record) return null
  return (
    <Button
      label="dropslot.orders.resend"
      disabled={busy}
      onClick={() => run(() => dataProvider.resendEmail(record.id), 'dropslot.orders.resent')}
    >
      <MailIcon />
    </Button>
  )
}

/** ACO JSON reveals card data: a format and a reason, both required; the server audits it. */
export function AcoDownloadButton() {
  const record = useRecordContext()
  const translate = useTranslate()
  const notify = useNotify()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const [open, setOpen] = useState(false)
  const [format, setFormat] = useState<AcoFormat>('dropslot')
  const [reason, setReason] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  if (!record) return null
  const reasonOk = reason.trim().length >= 5
  const submit = async () => {
    setTouched(true)
    if (!reasonOk) return
    setBusy(true)
    try {
      await dataProvider.downloadAco(record.id, format, reason.trim())
      notify('dropslot.orders.aco_downloaded', { type: 'success' })
      setOpen(false)
      setReason('')
      setTouched(false)
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <Button label="dropslot.orders.aco" onClick={() => setOpen(true)}>
        <DownloadIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('dropslot.orders.aco_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('dropslot.orders.aco_body')}</DialogContentText>
          <MuiTextField
            select
            fullWidth
            margin="normal"
            label={translate('dropslot.orders.aco_format')}
            value={format}
            onChange={(event) => setFormat(event.target.value as AcoFormat)}
            slotProps={{ htmlInput: { 'data-testid': 'aco-format' } }}
          >
            {ACO_FORMATS.map((item) => (
              <MenuItem key={item} value={item}>
                {item === 'dropslot'
                  ? 'Dropslot (JSON)'
                  : item === 'csv'
                    ? 'CSV'
                    : item.toUpperCase()}
              </MenuItem>
            ))}
          </MuiTextField>
          <MuiTextField
            fullWidth
            required
            margin="normal"
            label={translate('dropslot.orders.aco_reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && !reasonOk}
            helperText={
              touched && !reasonOk ? translate('dropslot.orders.aco_reason_required') : ' '
            }
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>
            {translate('dropslot.common.cancel')}
          </MuiButton>
          <MuiButton variant="contained" disabled={busy} onClick={submit}>
            {translate('dropslot.orders.download')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  )
}

export function BulkResendButton() {
  const { selectedIds } = useListContext()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const unselectAll = useUnselectAll('orders')
  const { busy, run } = useAction()
  return (
    <Button
      label="dropslot.orders.bulk_resend"
      disabled={busy}
      onClick={async () => {
        const ok = await run(
          () => Promise.all(selectedIds.map((id) => dataProvider.resendEmail(id))),
          'dropslot.orders.bulk_resent',
          { smart_count: selectedIds.length }
        )
        if (ok) unselectAll()
      }}
    >
      <MailIcon />
    </Button>
  )
}

const TOOL_PATH = {
  refund: 'refund',
  waive: 'waive-fee',
  retry: 'retry',
  correct: 'correct',
} as const

/** When each money tool applies (the server checks again and says why not). */
function toolApplies(tool: keyof typeof TOOL_PATH, record: Record<string, any>) {
  switch (tool) {
    case 'refund':
      return record.feeStatus === 'paid'
    case 'waive':
      return record.status === 'success' && Boolean(record.feeDue)
    case 'retry':
      return record.status === 'fail' && record.feeStatus === 'none'
    case 'correct':
      return record.status === 'success'
  }
}

/**
 * The tools to put money right: refund the fee (all or part), waive a fee that is due, try a
 * failed order again, correct a success to failed. Each asks for a reason (audited).
 */
export function OrderToolButton({ tool }: { tool: keyof typeof TOOL_PATH }) {
  const record = useRecordContext()
  const translate = useTranslate()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const { busy, run } = useAction()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [amount, setAmount] = useState('')
  const [code, setCode] = useState('')
  if (!record || !toolApplies(tool, record)) return null
  const submit = async () => {
    const ok = await run(
      () =>
        dataProvider.orderTool(record.id, TOOL_PATH[tool], {
          reason: reason.trim(),
          ...(tool === 'refund' && amount.trim() ? { amount: Number(amount) } : {}),
          ...(tool === 'correct' && code ? { reasonCode: code } : {}),
        }),
      `dropslot.orders.tool.${tool}_done`
    )
    if (ok) {
      setOpen(false)
      setReason('')
      setAmount('')
    }
  }
  return (
    <>
      <Button
        label={`dropslot.orders.tool.${tool}`}
        color={tool === 'correct' ? 'error' : 'primary'}
        onClick={() => setOpen(true)}
      >
        <UndoIcon />
      </Button>
      <ReasonDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate(`dropslot.orders.tool.${tool}_title`)}
        body={translate(`dropslot.orders.tool.${tool}_body`)}
        reasonLabel={translate('dropslot.orders.tool.reason')}
        reason={reason}
        onReason={setReason}
        reasonRequired
        dismissLabel={translate('dropslot.common.cancel')}
        confirmLabel={translate(`dropslot.orders.tool.${tool}`)}
        confirmColor={tool === 'correct' ? 'error' : 'primary'}
        confirmDisabled={busy || reason.trim().length < 3}
        onConfirm={submit}
      >
        {tool === 'refund' && (
          <MuiTextField
            fullWidth
            margin="normal"
            type="number"
            label={translate('dropslot.orders.tool.amount')}
            helperText={translate('dropslot.orders.tool.amount_hint')}
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        )}
        {tool === 'correct' && (
          <MuiTextField
            select
            fullWidth
            margin="normal"
            label={translate('dropslot.orders.tool.customer_reason')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          >
            {['sold_out', 'declined', 'address', 'other'].map((item) => (
              <MenuItem key={item} value={item}>
                {translate(`dropslot.orders.fail_code.${item}`)}
              </MenuItem>
            ))}
          </MuiTextField>
        )}
      </ReasonDialog>
    </>
  )
}

/**
 * Resend e-mails within a scope (the list's product and status filters, or a release run): a dry
 * call counts them first, and the confirm dialog says how many will go out.
 */
export function ResendAllButton() {
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const translate = useTranslate()
  const notify = useNotify()
  const { filterValues } = useListContext()
  const { busy, run } = useAction()
  const [open, setOpen] = useState(false)
  const [count, setCount] = useState<number | null>(null)
  const [runId, setRunId] = useState('')
  // The status filter is a list: a resend scope takes one status (or none).
  const statuses: string[] = [filterValues?.status ?? []].flat().filter(Boolean)
  const scope = () => ({
    productId: filterValues?.productId ? Number(filterValues.productId) : undefined,
    status: statuses.length === 1 ? statuses[0] : undefined,
    runId: runId.trim() ? Number(runId) : undefined,
  })
  const countNow = async () => {
    if (statuses.length > 1) {
      notify('dropslot.orders.resend_one_status', { type: 'error' })
      return
    }
    try {
      const answer = await dataProvider.resendAll({ ...scope(), dryRun: true })
      setCount(answer.emails)
    } catch (error) {
      setCount(null)
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' })
    }
  }
  return (
    <>
      <Button label="dropslot.orders.resend_all" onClick={() => setOpen(true)} disabled={busy}>
        <MailIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('dropslot.orders.resend_all')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('dropslot.orders.resend_scope_body')}</DialogContentText>
          <MuiTextField
            fullWidth
            margin="normal"
            type="number"
            label={translate('dropslot.orders.resend_run')}
            value={runId}
            onChange={(event) => {
              setRunId(event.target.value)
              setCount(null)
            }}
          />
          {count !== null && (
            <DialogContentText data-testid="resend-count">
              {translate('dropslot.orders.resend_all_confirm', { smart_count: count })}
            </DialogContentText>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>
            {translate('dropslot.common.cancel')}
          </MuiButton>
          {count === null ? (
            <MuiButton variant="contained" onClick={countNow}>
              {translate('dropslot.orders.resend_count')}
            </MuiButton>
          ) : (
            <MuiButton
              variant="contained"
              disabled={busy || count === 0}
              onClick={async () => {
                setOpen(false)
                setCount(null)
                await run(() => dataProvider.resendAll(scope()), 'dropslot.orders.resent_all')
              }}
            >
              {translate('dropslot.orders.resend_send', { smart_count: count })}
            </MuiButton>
          )}
        </DialogActions>
      </Dialog>
    </>
  )
}
