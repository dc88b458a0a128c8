import { Box } from '@mui/material'
import PolicyIcon from '@mui/icons-material/Policy'
import {
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  List,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
} from 'react-admin'
import { Search } from '../components/common'

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.audit" />,
  <TextInput key="action" source="action" alwaysOn />,
  <TextInput key="subjectType" source="subjectType" />,
  <TextInput key="subjectId" source="subjectId" />,
  <DateInput key="from" source="createdAt_gte" label="dropslot.common.from" />,
  <DateInput key="until" source="createdAt_lte" label="dropslot.common.until" />,
]

export function AuditLogList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={50}
      exporter={false}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="createdAt" showTime />
        <TextField source="actorLabel" />
        <TextField source="action" />
        <FunctionField
          source="subjectType"
          render={(record) =>
            record.subjectType ? `${record.subjectType} ${record.subjectId ?? ''}` : '—'
          }
        />
        <TextField source="reason" emptyText="" />
        <TextField source="ip" emptyText="" />
      </Datagrid>
    </List>
  )
}

export function AuditLogShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <DateField source="createdAt" showTime />
        <TextField source="actorLabel" />
        <TextField source="action" />
        <TextField source="subjectType" emptyText="—" />
        <TextField source="subjectId" emptyText="—" />
        <TextField source="reason" emptyText="—" />
        <TextField source="ip" emptyText="—" />
        <FunctionField
          source="meta"
          render={(record) => (
            <Box component="pre" sx={{ fontSize: 13, m: 0, whiteSpace: 'pre-wrap' }}>
              {record.meta ? JSON.stringify(record.meta, null, 2) : '—'}
            </Box>
          )}
        />
      </SimpleShowLayout>
    </Show>
  )
}

export default { list: AuditLogList, show: AuditLogShow, icon: PolicyIcon }
