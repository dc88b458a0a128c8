import { Box, Chip, Typography } from '@mui/material'
import EmailIcon from '@mui/icons-material/Email'
import {
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  Labeled,
  Link,
  List,
  NumberField,
  SelectArrayInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { Search, shortId } from '../components/common'

const STATUS = ['queued', 'sent', 'kept', 'failed', 'recorded'].map((id) => ({ id, name: id }))
const COLORS: Record<string, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  sent: 'success',
  failed: 'error',
  queued: 'warning',
  recorded: 'default',
  kept: 'info',
}

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.emails" />,
  <SelectArrayInput key="status" source="status" choices={STATUS} alwaysOn />,
  <TextInput key="template" source="template" />,
  <DateInput key="from" source="createdAt_gte" label="dropslot.common.from" />,
  <DateInput key="until" source="createdAt_lte" label="dropslot.common.until" />,
]

function EmailStatus() {
  const record = useRecordContext()
  const translate = useTranslate()
  if (!record) return null
  // Kept: delivered to the console's mailbox (no SMTP), never sent.
  const label = record.status === 'kept' ? translate('dropslot.mailbox.status') : record.status
  return <Chip size="small" label={label} color={COLORS[record.status] ?? 'default'} />
}

export function EmailList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={50}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="createdAt" showTime />
        <TextField source="toAddress" />
        <TextField source="subject" />
        <TextField source="template" />
        <FunctionField source="status" render={() => <EmailStatus />} />
        <NumberField source="attempts" />
        <FunctionField
          source="orderId"
          sortable={false}
          render={(record) =>
            record.orderId ? (
              <Link
                to={`/orders/${record.orderId}/show`}
                onClick={(event: React.MouseEvent) => event.stopPropagation()}
              >
                {shortId(record.orderId)}
              </Link>
            ) : null
          }
        />
      </Datagrid>
    </List>
  )
}

/** A message as its recipient sees it: the HTML in a sandboxed frame (no scripts), the text. */
export function Bodies() {
  const record = useRecordContext()
  const translate = useTranslate()
  if (!record) return null
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' } }}>
      <Box>
        <Typography variant="overline">{translate('dropslot.emails.html')}</Typography>
        {record.htmlBody ? (
          <Box
            component="iframe"
            title="E-mail preview"
            sandbox=""
            srcDoc={record.htmlBody}
            sx={{
              width: '100%',
              height: 420,
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: '#fff',
            }}
          />
        ) : (
          <Typography variant="body2">—</Typography>
        )}
      </Box>
      <Box>
        <Typography variant="overline">{translate('dropslot.emails.text')}</Typography>
        <Box component="pre" sx={{ whiteSpace: 'pre-wrap', fontSize: 13, m: 0 }}>
          {record.textBody}
        </Box>
      </Box>
    </Box>
  )
}

export function EmailShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="subject" />
        <TextField source="toAddress" />
        <FunctionField source="status" render={() => <EmailStatus />} />
        <TextField source="lastError" emptyText="—" />
        <DateField source="createdAt" showTime />
        <DateField source="sentAt" showTime emptyText="—" />
        <DateField source="keptAt" label="dropslot.mailbox.kept_at" showTime emptyText="—" />
        <FunctionField
          source="orderId"
          render={(record) =>
            record.orderId ? (
              <Link to={`/orders/${record.orderId}/show`}>{record.orderId}</Link>
            ) : (
              '—'
            )
          }
        />
        <Labeled label="dropslot.emails.message">
          <Bodies />
        </Labeled>
      </SimpleShowLayout>
    </Show>
  )
}

export default {
  list: EmailList,
  show: EmailShow,
  icon: EmailIcon,
  recordRepresentation: 'subject',
}
