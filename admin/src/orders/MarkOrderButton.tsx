import { useState } from 'react'
import { Alert, TextField as MuiTextField } from '@mui/material'
import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import CancelIcon from '@mui/icons-material/Cancel'
import { Button, useDataProvider, useRecordContext, useTranslate } from 'react-admin'
import type { DropslotDataProvider } from '../dataProvider'
import { cents } from '../components/common'
import { useAction } from './actions'
import { ReasonDialog } from './ReasonDialog'

/** What the mail intake has for the order (the admin order's `mailEvidence`), as a warning. */
function MailEvidenceNote({
  evidence,
}: {
  evidence?: { intakeOn: boolean; messages: number; signed: number }
}) {
  const translate = useTranslate()
  if (!evidence?.intakeOn || evidence.signed > 0) return null
  return (
    <Alert severity="warning" sx={{ mt: 2 }} data-testid="mark-mail-evidence">
      {evidence.messages === 0
        ? translate('dropslot.orders.mark_success_no_mail')
        : translate('dropslot.orders.mark_success_unsigned', { smart_count: evidence.messages })}
    </Alert>
  )
}

/**
 * Mark success or failed by hand. A success charges the fee at once: the dialog says how much,
 * warns when the mail intake has no retailer e-mail for the order, and asks for the retailer's
 * confirmation number or a reason (the server refuses a success with neither).
 */
export function MarkOrderButton({ status }: { status: 'success' | 'fail' }) {
  const record = useRecordContext()
  const translate = useTranslate()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const { busy, run } = useAction()
  const [open, setOpen] = useState(false)
  const [confirmation, setConfirmation] = useState('')
  const [reason, setReason] = useState('')
  if (!record || !['pending', 'processing'].includes(record.status)) return null
  const success = status === 'success'
  const missing = success && !confirmation.trim() && !reason.trim()
  const submit = async () => {
    const ok = await run(
      () =>
        dataProvider.markOrder(record.id, status, {
          confirmationNumber: success ? confirmation.trim() || undefined : undefined,
          reason: reason.trim() || undefined,
        }),
      'dropslot.orders.marked',
      { status: translate(`dropslot.status.${status}`) }
    )
    if (ok) setOpen(false)
  }
  return (
    <>
      <Button
        label={success ? 'dropslot.orders.mark_success' : 'dropslot.orders.mark_fail'}
        color={success ? 'success' : 'error'}
        onClick={() => setOpen(true)}
      >
        {success ? <CheckCircleIcon /> : <CancelIcon />}
      </Button>
      <ReasonDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate(
          success ? 'dropslot.orders.mark_success_title' : 'dropslot.orders.mark_fail_title'
        )}
        body={translate(
          success ? 'dropslot.orders.mark_success_body' : 'dropslot.orders.mark_fail_body'
        )}
        notice={
          success && (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="mark-charge">
              {translate('dropslot.orders.mark_success_charge', {
                fee: cents(record.fee?.amountCents ?? record.priceCents),
              })}
            </Alert>
          )
        }
        reasonLabel={translate(
          success ? 'dropslot.orders.mark_success_reason' : 'dropslot.orders.fail_reason'
        )}
        reason={reason}
        onReason={setReason}
        reasonHint={missing ? translate('dropslot.orders.mark_success_needs') : undefined}
        reasonAutoFocus={!success}
        dismissLabel={translate('dropslot.common.cancel')}
        confirmLabel={translate(
          success ? 'dropslot.orders.mark_success' : 'dropslot.orders.mark_fail'
        )}
        confirmColor={success ? 'success' : 'error'}
        confirmDisabled={busy || missing}
        onConfirm={submit}
      >
        {success && <MailEvidenceNote evidence={record.mailEvidence} />}
        {success && (
          <MuiTextField
            autoFocus
            fullWidth
            margin="normal"
            label={translate('dropslot.orders.confirmation_number')}
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 120 } }}
          />
        )}
      </ReasonDialog>
    </>
  )
}
