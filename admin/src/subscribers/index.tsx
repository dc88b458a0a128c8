import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead'
import DownloadIcon from '@mui/icons-material/Download'
import {
  BooleanField,
  Button,
  Datagrid,
  DateField,
  DateInput,
  DeleteWithConfirmButton,
  EmailField,
  List,
  NullableBooleanInput,
  TextField,
  TextInput,
  TopToolbar,
  FilterButton,
  useListContext,
  useDataProvider,
  useNotify,
} from 'react-admin'
import type { DropslotDataProvider } from '../dataProvider'
import { Search } from '../components/common'

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.subscribers" />,
  <NullableBooleanInput key="subscribed" source="subscribed" alwaysOn />,
  <TextInput key="source" source="source" />,
  <DateInput key="from" source="createdAt_gte" label="dropslot.subscribers.from" />,
  <DateInput key="until" source="createdAt_lte" label="dropslot.subscribers.until" />,
]

/** CSV of the whole filtered list, built by the server (and audited there). */
function ExportCsvButton() {
  const { filterValues } = useListContext()
  const dataProvider = useDataProvider<DropslotDataProvider>()
  const notify = useNotify()
  return (
    <Button
      label="dropslot.subscribers.export"
      onClick={async () => {
        try {
          await dataProvider.exportSubscribers(filterValues)
          notify('dropslot.subscribers.exported', { type: 'success' })
        } catch (error) {
          notify((error as Error).message, { type: 'error' })
        }
      }}
    >
      <DownloadIcon />
    </Button>
  )
}

export function SubscriberList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={50}
      exporter={false}
      actions={
        <TopToolbar>
          <FilterButton />
          <ExportCsvButton />
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false}>
        <EmailField source="email" />
        <TextField source="source" />
        <BooleanField source="subscribed" sortable={false} />
        <DateField source="createdAt" showTime />
        <DeleteWithConfirmButton mutationMode="pessimistic" />
      </Datagrid>
    </List>
  )
}

export default { list: SubscriberList, icon: MarkEmailReadIcon, recordRepresentation: 'email' }
