import { Alert, Box, LinearProgress, Typography } from '@mui/material'
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead'
import {
  Datagrid,
  DateField,
  List,
  RecordContextProvider,
  TextField,
  useGetOne,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { Bodies } from './index'

const KEPT = { status: ['kept'] }

/** A row's message, opened in place: the list carries no bodies, so it is read on its own. */
function Preview() {
  const record = useRecordContext()
  const { data } = useGetOne('emails', { id: record?.id }, { enabled: record !== undefined })
  if (!data) return <LinearProgress />
  return (
    <RecordContextProvider value={data}>
      <Bodies />
    </RecordContextProvider>
  )
}

/**
 * The console's mailbox: the outbox's kept e-mails (no SMTP outside production), newest first,
 * each previewed in place; a row opens the e-mail log's page of the message.
 */
export function Mailbox() {
  const translate = useTranslate()
  return (
    <Box>
      <Alert severity="info" sx={{ mt: 2 }}>
        {translate('dropslot.mailbox.intro')}
      </Alert>
      <List
        resource="emails"
        storeKey="mailbox"
        filter={KEPT}
        sort={{ field: 'keptAt', order: 'DESC' }}
        perPage={50}
        title={translate('dropslot.mailbox.title')}
        empty={
          <Typography variant="body2" sx={{ p: 2 }}>
            {translate('dropslot.mailbox.empty')}
          </Typography>
        }
      >
        <Datagrid rowClick="show" expand={<Preview />} bulkActionButtons={false}>
          <DateField source="keptAt" label="dropslot.mailbox.kept_at" showTime />
          <TextField source="toAddress" />
          <TextField source="subject" />
          <TextField source="template" />
        </Datagrid>
      </List>
    </Box>
  )
}

export default { list: Mailbox, icon: MarkEmailReadIcon }
