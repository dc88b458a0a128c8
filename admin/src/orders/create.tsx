import { useWatch } from 'react-hook-form'
import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextInput,
  required,
  useGetOne,
  useTranslate,
} from 'react-admin'
import type { AdminCustomer } from '@shared/api/contract'

type ProfileChoice = AdminCustomer['profiles'][number]

/** Profiles of the chosen customer, and sizes/styles of the chosen product. */
function OrderChoices() {
  const translate = useTranslate()
  const userId = useWatch({ name: 'userId' }) as string | undefined
  const productId = useWatch({ name: 'productId' }) as number | undefined
  const { data: customer } = useGetOne('customers', { id: userId ?? '' }, { enabled: !!userId })
  const { data: product } = useGetOne('products', { id: productId ?? 0 }, { enabled: !!productId })
  const profiles = ((customer?.profiles ?? []) as ProfileChoice[]).map((profile) => ({
    id: profile.id,
    name: [profile.profileName, profile.city, profile.state].filter(Boolean).join(' · '),
  }))
  const sizes = ((product?.sizes ?? []) as string[]).map((size) => ({ id: size, name: size }))
  const styles = String(product?.styles ?? '')
    .split(',')
    .filter(Boolean)
    .map((style) => ({ id: style, name: style }))
  return (
    <>
      <SelectInput
        source="profileId"
        choices={profiles}
        validate={required()}
        disabled={!userId}
        helperText={
          !userId
            ? translate('dropslot.orders.pick_customer_first')
            : profiles.length === 0
              ? translate('dropslot.orders.no_profiles')
              : undefined
        }
      />
      <SelectInput
        source="size"
        choices={sizes}
        validate={required()}
        disabled={!productId}
        helperText={!productId ? translate('dropslot.orders.pick_product_first') : undefined}
      />
      <SelectInput source="style" choices={styles} validate={required()} disabled={!productId} />
    </>
  )
}

export function OrderCreate() {
  return (
    <Create redirect="show">
      <SimpleForm>
        <ReferenceInput source="userId" reference="customers">
          <AutocompleteInput
            optionText={(customer) => `${customer.name} · ${customer.email}`}
            validate={required()}
            sx={{ minWidth: 360 }}
          />
        </ReferenceInput>
        <ReferenceInput source="productId" reference="products" filter={{ avail: true }}>
          <AutocompleteInput
            optionText="productTitle"
            validate={required()}
            sx={{ minWidth: 360 }}
          />
        </ReferenceInput>
        <OrderChoices />
        <TextInput source="promoCode" parse={(value: string) => value?.toUpperCase()} />
      </SimpleForm>
    </Create>
  )
}
