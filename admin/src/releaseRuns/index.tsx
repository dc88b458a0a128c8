import { Box, Typography } from '@mui/material'
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch'
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  TextField,
  useTranslate,
} from 'react-admin'

function Empty() {
  const translate = useTranslate()
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">{translate('dropslot.release_runs.empty')}</Typography>
    </Box>
  )
}

/** Release runs, as the release-day module records them (GET /api/admin/release-runs). */
export function ReleaseRunList() {
  return (
    <List sort={{ field: 'startedAt', order: 'DESC' }} empty={<Empty />} exporter={false}>
      <Datagrid bulkActionButtons={false}>
        <DateField source="startedAt" showTime />
        <TextField source="status" />
        <TextField source="engine" />
        <NumberField source="ordersSubmitted" label="dropslot.release_runs.submitted" />
        <NumberField source="ordersSucceeded" label="dropslot.release_runs.succeeded" />
        <NumberField source="ordersFailed" label="dropslot.release_runs.failed" />
        <FunctionField
          label="dropslot.release_runs.took"
          render={(record) =>
            record.finishedAt && record.startedAt
              ? `${Math.round((new Date(record.finishedAt).getTime() - new Date(record.startedAt).getTime()) / 1000)} s`
              : '…'
          }
        />
      </Datagrid>
    </List>
  )
}

export default { list: ReleaseRunList, icon: RocketLaunchIcon }
