import LocalOfferIcon from '@mui/icons-material/LocalOffer'
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  Edit,
  FunctionField,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  SimpleForm,
  TextField,
  TextInput,
  maxValue,
  minValue,
  regex,
  required,
} from 'react-admin'
import { Search } from '../components/common'

const filters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.promo" />,
  <NullableBooleanInput key="active" source="active" alwaysOn />,
]

export function PromoCodeList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="code" sx={{ fontFamily: 'monospace' }} />
        <FunctionField source="percent" render={(record) => `${record.percent}%`} />
        <FunctionField
          source="uses"
          render={(record) => (record.maxUses ? `${record.uses} / ${record.maxUses}` : record.uses)}
        />
        <DateField source="startsAt" showTime emptyText="—" />
        <DateField source="expiresAt" showTime emptyText="—" />
        <BooleanField source="active" />
        <BooleanField source="usableNow" sortable={false} />
        <NumberField source="id" />
      </Datagrid>
    </List>
  )
}

function PromoForm() {
  return (
    <SimpleForm>
      <TextInput
        source="code"
        validate={[
          required(),
          regex(/^[A-Za-z0-9_-]{2,40}$/, 'Use 2 to 40 letters, digits, dashes or underscores.'),
        ]}
        parse={(value: string) => value?.toUpperCase()}
        helperText="dropslot.promo.code_hint"
      />
      <NumberInput source="percent" validate={[required(), minValue(1), maxValue(100)]} step={1} />
      <NumberInput
        source="maxUses"
        validate={minValue(1)}
        step={1}
        helperText="dropslot.promo.max_uses_hint"
      />
      <DateTimeInput source="startsAt" />
      <DateTimeInput source="expiresAt" />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  )
}

const editable = ({
  code,
  percent,
  maxUses,
  startsAt,
  expiresAt,
  active,
}: Record<string, unknown>) => ({
  code,
  percent,
  maxUses,
  startsAt,
  expiresAt,
  active,
})

export function PromoCodeCreate() {
  return (
    <Create redirect="list" transform={editable}>
      <PromoForm />
    </Create>
  )
}

export function PromoCodeEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={editable}>
      <PromoForm />
    </Edit>
  )
}

export default {
  list: PromoCodeList,
  create: PromoCodeCreate,
  edit: PromoCodeEdit,
  icon: LocalOfferIcon,
  recordRepresentation: 'code',
}
