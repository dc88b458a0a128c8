import { Box, Chip, Typography } from '@mui/material'
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive'
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
  useTranslate,
} from 'react-admin'
import { Search } from '../components/common'

export type { Incident as IncidentRecord } from '@shared/api/contract'

export function duration(seconds: number) {
  if (seconds < 120) return `${seconds} s`
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`
  return `${Math.round(seconds / 3600)} h`
}

export function IncidentStatus({ status }: { status: string }) {
  const translate = useTranslate()
  return (
    <Chip
      size="small"
      color={status === 'open' ? 'error' : 'success'}
      label={translate(`dropslot.incidents.status_${status}`, { _: status })}
    />
  )
}

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.incidents" />,
  <SelectInput
    key="status"
    source="status"
    alwaysOn
    choices={[
      { id: 'open', name: 'dropslot.incidents.status_open' },
      { id: 'resolved', name: 'dropslot.incidents.status_resolved' },
    ]}
  />,
  <TextInput key="rule" source="rule" />,
]

/** Every incident the alert check opened, open ones in red (GET /api/admin/incidents). */
export function IncidentList() {
  return (
    <List filters={filters} sort={{ field: 'openedAt', order: 'DESC' }} exporter={false}>
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        rowSx={(record) =>
          record.status === 'open' ? { backgroundColor: 'rgba(211, 47, 47, 0.08)' } : {}
        }
      >
        <DateField source="openedAt" showTime />
        <FunctionField
          source="status"
          render={(record) => <IncidentStatus status={record.status} />}
        />
        <FunctionField
          source="rule"
          render={(record) => (record.subject ? `${record.rule} (${record.subject})` : record.rule)}
        />
        <TextField source="title" sortable={false} />
        <DateField source="resolvedAt" showTime emptyText="—" />
        <FunctionField
          label="dropslot.incidents.lasted"
          render={(record) => duration(record.durationSeconds)}
        />
      </Datagrid>
    </List>
  )
}

export function IncidentShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="title" />
        <FunctionField
          source="status"
          render={(record) => <IncidentStatus status={record.status} />}
        />
        <TextField source="rule" />
        <TextField source="ruleDescription" emptyText="—" />
        <TextField source="subject" emptyText="—" />
        <FunctionField
          source="detail"
          render={(record) => (
            <Box sx={{ maxWidth: 720 }}>
              <Typography variant="body2">{record.detail ?? '—'}</Typography>
            </Box>
          )}
        />
        <TextField source="value" />
        <TextField source="threshold" />
        <DateField source="openedAt" showTime />
        <DateField source="lastSeenAt" showTime />
        <DateField source="resolvedAt" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  )
}

export default { list: IncidentList, show: IncidentShow, icon: NotificationsActiveIcon }
