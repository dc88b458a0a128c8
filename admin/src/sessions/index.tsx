import {
  BooleanField,
  Datagrid,
  DateField,
  DeleteButton,
  List,
  TextField,
  useRecordContext,
} from 'react-admin'
import DevicesIcon from '@mui/icons-material/Devices'

/** Ending the session in use signs this console out at its next call. */
function EndSessionButton() {
  const record = useRecordContext<{ current: boolean }>()
  if (!record) return null
  return (
    <DeleteButton
      label={record.current ? 'Sign out here' : 'End session'}
      mutationMode="pessimistic"
      confirmTitle="End this session?"
      confirmContent="Whoever uses it is signed out at their next click."
    />
  )
}

/** Open staff sessions: your own; an owner sees everyone's. */
function SessionList() {
  return (
    <List pagination={false} exporter={false} sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="email" />
        <TextField source="role" />
        <DateField source="signedInAt" showTime />
        <DateField source="lastUsedAt" showTime />
        <DateField source="expiresAt" label="Ends (if idle)" showTime />
        <TextField source="ip" label="Address" />
        <TextField source="userAgent" label="Browser" />
        <BooleanField source="current" label="This browser" />
        <EndSessionButton />
      </Datagrid>
    </List>
  )
}

export default { list: SessionList, icon: DevicesIcon, recordRepresentation: 'email' }
