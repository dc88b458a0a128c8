import { useState } from 'react'
import { Box, Button, Chip, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead'
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin'
import { Search } from '../components/common'
import type { DropslotDataProvider } from '../dataProvider'

export type MailMessageRecord = {
  id: string
  messageId: string | null
  door: string
  sender: string | null
  subject: string | null
  retailer: string | null
  kind: 'confirmation' | 'shipped' | 'cancelled' | 'unknown'
  orderId: string | null
  orderNumber: string | null
  dkim: 'pass' | 'fail' | 'none'
  dkimDomain: string | null
  action: string | null
  reason: string | null
  retailerOrderNumber: string | null
  trackingNumber: string | null
  sha256: string
  rawKept: boolean
  receivedAt: string
}

const ACTIONS = ['success', 'refund', 'recorded', 'review', 'duplicate', 'ignored']

export function DkimChip({ dkim }: { dkim: string }) {
  return (
    <Chip
      size="small"
      color={dkim === 'pass' ? 'success' : dkim === 'fail' ? 'error' : 'default'}
      label={`DKIM ${dkim}`}
    />
  )
}

export function MailActionChip({ action }: { action: string | null }) {
  const color =
    action === 'success' || action === 'refund'
      ? 'success'
      : action === 'review'
        ? 'warning'
        : 'default'
  return <Chip size="small" color={color} label={action ?? 'reading'} />
}

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.mail" />,
  <SelectInput
    key="action"
    source="action"
    alwaysOn
    choices={ACTIONS.map((action) => ({ id: action, name: action }))}
  />,
  <SelectInput
    key="kind"
    source="kind"
    choices={['confirmation', 'shipped', 'cancelled', 'unknown'].map((kind) => ({
      id: kind,
      name: kind,
    }))}
  />,
  <SelectInput
    key="dkim"
    source="dkim"
    choices={['pass', 'fail', 'none'].map((dkim) => ({ id: dkim, name: dkim }))}
  />,
  <TextInput key="orderId" source="orderId" />,
]

/**
 * The retailers' e-mails the intake read (GET /api/admin/mail-messages): their order, kind, DKIM
 * result and what they did; `action: review` is the review list.
 */
export function MailList() {
  return (
    <List filters={filters} sort={{ field: 'receivedAt', order: 'DESC' }} exporter={false}>
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        rowSx={(record) =>
          record.action === 'review' ? { backgroundColor: 'rgba(237, 108, 2, 0.08)' } : {}
        }
      >
        <DateField source="receivedAt" showTime />
        <TextField source="retailer" emptyText="—" />
        <TextField source="kind" />
        <FunctionField source="dkim" render={(record) => <DkimChip dkim={record.dkim} />} />
        <FunctionField
          source="action"
          render={(record) => <MailActionChip action={record.action} />}
        />
        <TextField source="orderNumber" sortable={false} emptyText="—" />
        <TextField source="reason" sortable={false} emptyText="" />
        <TextField source="door" sortable={false} />
      </Datagrid>
    </List>
  )
}

/** Assign to order / Dismiss, for a message in review (both audited by the server). */
function ReviewActions() {
  const record = useRecordContext<MailMessageRecord>()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [orderId, setOrderId] = useState('')
  const [assignReason, setAssignReason] = useState('')
  const [reason, setReason] = useState('')
  if (!record || record.action !== 'review') return null
  const act = async (action: () => Promise<{ action?: string; reason?: string | null }>) => {
    try {
      const answer = await action()
      notify(
        answer.action === 'review'
          ? `Still in review: ${answer.reason ?? ''}`
          : `Done: ${answer.action ?? ''}`,
        { type: answer.action === 'review' ? 'warning' : 'success' }
      )
      refresh()
    } catch (error) {
      notify((error as Error).message, { type: 'error' })
    }
  }
  return (
    <Box sx={{ mt: 2, maxWidth: 640 }}>
      <Typography variant="subtitle2">Review</Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <MuiTextField
          size="small"
          label="Order id (UUID)"
          value={orderId}
          onChange={(event) => setOrderId(event.target.value)}
          sx={{ flex: 1 }}
        />
        <MuiTextField
          size="small"
          label="Why this order"
          value={assignReason}
          onChange={(event) => setAssignReason(event.target.value)}
          sx={{ flex: 1 }}
        />
        <Button
          variant="contained"
          disabled={!orderId.trim() || assignReason.trim().length < 3}
          onClick={() =>
            act(() => dataProvider.assignMail(record.id, orderId.trim(), assignReason.trim()))
          }
        >
          Assign to order
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Only a valid signature of the order&apos;s retailer moves its money; anything else stays in
        review.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        <MuiTextField
          size="small"
          label="Why dismiss"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          sx={{ flex: 1 }}
        />
        <Button
          variant="outlined"
          color="warning"
          disabled={reason.trim().length < 3}
          onClick={() => act(() => dataProvider.dismissMail(record.id, reason.trim()))}
        >
          Dismiss
        </Button>
      </Stack>
    </Box>
  )
}

export function MailShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="subject" emptyText="—" />
        <TextField source="sender" emptyText="—" />
        <TextField source="recipient" emptyText="—" />
        <TextField source="retailer" emptyText="—" />
        <TextField source="kind" />
        <FunctionField source="dkim" render={(record) => <DkimChip dkim={record.dkim} />} />
        <TextField source="dkimDomain" emptyText="—" />
        <FunctionField
          source="action"
          render={(record) => <MailActionChip action={record.action} />}
        />
        <TextField source="reason" emptyText="—" />
        <TextField source="orderNumber" emptyText="—" />
        <TextField source="orderId" emptyText="—" />
        <TextField source="retailerOrderNumber" emptyText="—" />
        <TextField source="trackingNumber" emptyText="—" />
        <TextField source="messageId" emptyText="—" />
        <TextField source="sha256" />
        <FunctionField
          source="rawKept"
          render={(record) =>
            record.rawKept ? 'kept, sealed' : 'deleted after the retention period'
          }
        />
        <TextField source="door" />
        <DateField source="receivedAt" showTime />
        <TextField source="reviewedBy" emptyText="—" />
        <ReviewActions />
      </SimpleShowLayout>
    </Show>
  )
}

export default { list: MailList, show: MailShow, icon: MarkEmailReadIcon }
