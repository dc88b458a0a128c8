import PeopleIcon from '@mui/icons-material/People'
import {
  BooleanField,
  Datagrid,
  DateField,
  Edit,
  EmailField,
  FunctionField,
  List,
  NullableBooleanInput,
  NumberField,
  ReferenceManyField,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  TabbedShowLayout,
  TextField,
  TextInput,
  required,
  maxLength,
} from 'react-admin'
import { Search, StatusChip, money, shortId } from '../components/common'
import type { AdminCustomer } from '@shared/api/contract'
import { ACCOUNT_ROLES, ROLE_LABELS } from '@shared/staff_roles'
import { useCan } from '../components/Can'
import { formatPhone, phoneForServer } from '@shared/phone'

const ROLES = ACCOUNT_ROLES.map((role) => ({ id: role, name: ROLE_LABELS[role] }))

const customerFilters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.customers" />,
  <SelectInput key="role" source="role" choices={ROLES} alwaysOn />,
  <NullableBooleanInput key="card" source="cardOnFile" />,
]

/**
 * A customer's phone as people read it (`+1 212 555 0147`), formatted by libphonenumber; `source`
 * on the element gives the list its column and the page its label.
 */
function PhoneField({ source }: { source: 'phone' }) {
  return (
    <FunctionField
      source={source}
      render={(record: { phone?: string | null }) =>
        record.phone ? formatPhone(record.phone) : '—'
      }
    />
  )
}

export function CustomerList() {
  return (
    <List filters={customerFilters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={50}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" />
        <EmailField source="email" />
        <PhoneField source="phone" />
        <SelectField source="role" choices={ROLES} />
        <BooleanField source="cardOnFile" />
        <NumberField source="ordersCount" sortBy="ordersCount" />
        <NumberField source="profilesCount" sortable={false} />
        <DateField source="createdAt" />
      </Datagrid>
    </List>
  )
}

type Profile = AdminCustomer['profiles'][number]

export function CustomerShow() {
  return (
    <Show>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="dropslot.customers.details">
          <TextField source="name" />
          <EmailField source="email" />
          <PhoneField source="phone" />
          <SelectField source="role" choices={ROLES} />
          <FunctionField
            label="dropslot.customers.billing"
            render={(record) => {
              const address = record.billingAddress
              return address
                ? [
                    address.line1,
                    address.line2,
                    address.city,
                    address.state,
                    address.postal_code,
                    address.country,
                  ]
                    .filter(Boolean)
                    .join(', ')
                : '—'
            }}
          />
          <BooleanField source="cardOnFile" />
          <FunctionField
            label="dropslot.customers.profiles"
            render={(record) =>
              ((record.profiles ?? []) as Profile[])
                .map((profile) =>
                  [profile.profileName, profile.city, profile.state].filter(Boolean).join(' · ')
                )
                .join('; ') || '—'
            }
          />
          <DateField source="createdAt" showTime />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="dropslot.customers.orders">
          <ReferenceManyField
            reference="orders"
            target="customerId"
            perPage={25}
            sort={{ field: 'orderDate', order: 'DESC' }}
          >
            <Datagrid rowClick="show" bulkActionButtons={false}>
              <DateField source="orderDate" showTime />
              <FunctionField
                label="resources.orders.fields.id"
                render={(record) => shortId(record.id)}
              />
              <TextField source="productTitle" />
              <FunctionField source="price" render={(record) => money(record.price)} />
              <FunctionField source="status" render={() => <StatusChip />} />
            </Datagrid>
          </ReferenceManyField>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="dropslot.customers.emails">
          <ReferenceManyField
            reference="emails"
            target="customerId"
            perPage={25}
            sort={{ field: 'createdAt', order: 'DESC' }}
          >
            <Datagrid rowClick="show" bulkActionButtons={false}>
              <DateField source="createdAt" showTime />
              <TextField source="subject" />
              <TextField source="template" />
              <TextField source="status" />
            </Datagrid>
          </ReferenceManyField>
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  )
}

/** Support edits a customer's details; only an owner changes roles (with a fresh factor). */
export function CustomerEdit() {
  const mayChangeRoles = useCan('staff')
  return (
    <Edit
      mutationMode="pessimistic"
      transform={({ name, firstName, lastName, phone, role }) => ({
        name,
        firstName,
        lastName,
        phone,
        ...(mayChangeRoles ? { role } : {}),
      })}
    >
      <SimpleForm>
        <TextInput source="email" disabled helperText="dropslot.customers.email_hint" />
        <TextInput source="name" validate={[required(), maxLength(64)]} />
        <TextInput source="firstName" validate={maxLength(15)} />
        <TextInput source="lastName" validate={maxLength(20)} />
        <TextInput
          source="phone"
          validate={maxLength(20)}
          format={(value?: string | null) => (value ? formatPhone(value) : '')}
          parse={phoneForServer}
        />
        <SelectInput
          source="role"
          choices={ROLES}
          validate={required()}
          disabled={!mayChangeRoles}
          helperText={mayChangeRoles ? false : 'Only an owner changes roles.'}
        />
      </SimpleForm>
    </Edit>
  )
}

export default {
  list: CustomerList,
  show: CustomerShow,
  edit: CustomerEdit,
  icon: PeopleIcon,
  recordRepresentation: (record: { name: string; email: string }) =>
    `${record.name} · ${record.email}`,
}
