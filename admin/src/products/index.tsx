import { useEffect } from 'react'
import { Avatar, Box, Typography } from '@mui/material'
import InventoryIcon from '@mui/icons-material/Inventory2'
import { useFormContext, useWatch } from 'react-hook-form'
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  CheckboxGroupInput,
  Create,
  DatagridConfigurable,
  DateTimeInput,
  DeleteWithConfirmButton,
  Edit,
  EditButton,
  FunctionField,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  RadioButtonGroupInput,
  SaveButton,
  SelectInput,
  Show,
  SimpleShowLayout,
  TabbedForm,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  CreateButton,
  ExportButton,
  SelectColumnsButton,
  ShowButton,
  minValue,
  maxValue,
  required,
  useGetList,
  useRecordContext,
  useTranslate,
  type Validator,
  ReferenceManyField,
  Datagrid,
  DateField,
} from 'react-admin'
import {
  BRANDS,
  Search,
  ReleaseTime,
  SlotBar,
  StatusChip,
  TagChips,
  money,
  shortId,
} from '../components/common'
import { SIZES_BY_TYPE } from '@shared/vocabulary'
import { DrawPanel } from './DrawPanel'
import { RetailerNames, RetailersInput, RetailersTable, withRetailerList } from './Retailers'
import { QueuePanel } from './QueuePanel'
import { ReportPanel } from './ReportPanel'

export const SIZES: Record<string, string[]> = SIZES_BY_TYPE

const SIZE_TYPES = [
  { id: 'shoe', name: 'Shoe (4-14)' },
  { id: 'clothing', name: 'Clothing (XS-XL)' },
  { id: 'OS', name: 'One size (OS)' },
]

const RELEASE_MODE_CHOICES = [
  { id: 'first-come', name: 'dropslot.products.mode_first_come' },
  { id: 'draw', name: 'dropslot.products.mode_draw' },
]

const brandChoices = BRANDS.map((brand) => ({ id: brand, name: brand }))

const productFilters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.products" />,
  <SelectInput key="tags" source="tags" choices={brandChoices} alwaysOn />,
  <NullableBooleanInput key="upcoming" source="upcoming" alwaysOn />,
  <SelectInput key="sizeType" source="sizeType" choices={SIZE_TYPES} />,
  <NullableBooleanInput key="avail" source="avail" />,
  <NullableBooleanInput key="soldOut" source="soldOut" />,
]

function Thumbnail() {
  const record = useRecordContext()
  if (!record) return null
  return (
    <Avatar
      variant="rounded"
      src={record.productImage as string}
      alt=""
      sx={{ width: 48, height: 48, bgcolor: 'grey.200' }}
    >
      {String(record.productTitle ?? '?').slice(0, 1)}
    </Avatar>
  )
}

const ListActions = () => (
  <TopToolbar>
    <SelectColumnsButton />
    <CreateButton />
    <ExportButton />
  </TopToolbar>
)

export function ProductList() {
  return (
    <List
      filters={productFilters}
      sort={{ field: 'releaseAt', order: 'DESC' }}
      perPage={25}
      actions={<ListActions />}
    >
      <DatagridConfigurable rowClick="edit" bulkActionButtons={false}>
        <FunctionField
          source="productImage"
          label=""
          sortable={false}
          render={() => <Thumbnail />}
        />
        <FunctionField
          source="productTitle"
          render={(record) => (
            <Box>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {record.productTitle}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {record.styles}
              </Typography>
            </Box>
          )}
        />
        <FunctionField source="tags" sortable={false} render={() => <TagChips />} />
        <FunctionField source="retailers" sortable={false} render={() => <RetailerNames />} />
        <FunctionField source="price" render={(record) => money(record.price)} textAlign="right" />
        <FunctionField source="fill" render={() => <SlotBar />} />
        <NumberField source="activeOrders" sortable={false} />
        <FunctionField source="releaseAt" render={() => <ReleaseTime />} />
        <BooleanField source="avail" />
        <EditButton />
      </DatagridConfigurable>
    </List>
  )
}

/** Sizes that follow the size type: switching type keeps the sizes that still fit. */
function SizesInput() {
  const translate = useTranslate()
  const sizeType = (useWatch({ name: 'sizeType' }) as string) ?? 'shoe'
  const { getValues, setValue } = useFormContext()
  const choices = SIZES[sizeType] ?? SIZES.shoe
  // `choices` is one constant list per size type, so this runs when the size type changes.
  useEffect(() => {
    const current: string[] = getValues('sizes') ?? []
    const kept = current.filter((size) => choices.includes(size))
    if (current.length === 0 || kept.length !== current.length) {
      setValue('sizes', kept.length > 0 ? kept : [...choices], { shouldDirty: true })
    }
  }, [choices, getValues, setValue])
  const atLeastOne: Validator = (value) =>
    Array.isArray(value) && value.length > 0 ? undefined : translate('dropslot.products.pick_size')
  return (
    <CheckboxGroupInput
      source="sizes"
      choices={choices.map((size) => ({ id: size, name: size }))}
      validate={atLeastOne}
      helperText="dropslot.products.sizes_hint"
      row
    />
  )
}

/** Every brand tag the catalogue uses (plus the usual ones), so new products pick from them. */
function useKnownBrands() {
  const { data } = useGetList('products', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'id', order: 'DESC' },
  })
  const used = (data ?? []).flatMap((product) => String(product.tags ?? '').split(','))
  return [...new Set([...BRANDS, ...used].map((tag) => tag.trim().toLowerCase()))]
    .filter(Boolean)
    .sort()
}

/** Brands from the catalogue's tags; typing a name that is not there yet adds it. */
function BrandInput() {
  const record = useRecordContext()
  const existing = String(record?.tags ?? '')
    .split(',')
    .filter(Boolean)
  const known = useKnownBrands()
  const choices = [...new Set([...known, ...existing])].map((tag) => ({ id: tag, name: tag }))
  return (
    <AutocompleteArrayInput
      source="tags"
      choices={choices}
      format={(value: unknown) =>
        typeof value === 'string' ? value.split(',').filter(Boolean) : ((value as string[]) ?? [])
      }
      onCreate={(typed?: string) => {
        const tag = (typed ?? '').trim().toLowerCase()
        return tag ? { id: tag, name: tag } : undefined
      }}
      helperText="dropslot.products.brands_hint"
    />
  )
}

function ImagePreview() {
  const image = useWatch({ name: 'productImage' }) as string | undefined
  if (!image) return null
  return (
    <Box
      component="img"
      src={image}
      alt=""
      sx={{ maxWidth: 220, maxHeight: 160, borderRadius: 2, border: 1, borderColor: 'divider' }}
    />
  )
}

function StockInputs({ creating }: { creating: boolean }) {
  const translate = useTranslate()
  const record = useRecordContext()
  const taken = Number(record?.stockTaken ?? 0)
  const notBelowTaken: Validator = (value, values) => {
    const floor = creating ? Number(values.stockTaken ?? 0) : taken
    return Number(value) < floor
      ? translate('dropslot.products.total_below_taken', { taken: floor })
      : undefined
  }
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <NumberInput
        source="price"
        validate={[required(), minValue(0), maxValue(100000)]}
        helperText="dropslot.products.fee_hint"
        step={0.5}
      />
      <NumberInput
        source="totalStock"
        validate={[required(), minValue(0), maxValue(1_000_000), notBelowTaken]}
        helperText={creating ? undefined : translate('dropslot.products.slots_hint', { taken })}
        step={1}
      />
      {creating ? (
        <NumberInput source="stockTaken" defaultValue={0} validate={[minValue(0)]} step={1} />
      ) : (
        <Box sx={{ pt: 1 }}>
          <Typography variant="caption" color="text.secondary">
            {translate('resources.products.fields.stockTaken')}
          </Typography>
          <SlotBar />
        </Box>
      )}
    </Box>
  )
}

function ProductForm({ creating }: { creating: boolean }) {
  return (
    <TabbedForm
      toolbar={
        <Toolbar sx={{ justifyContent: 'space-between' }}>
          <SaveButton />
          {!creating && <DeleteWithConfirmButton mutationMode="pessimistic" />}
        </Toolbar>
      }
    >
      <TabbedForm.Tab label="dropslot.products.tab_product">
        <TextInput source="productTitle" validate={required()} fullWidth />
        <TextInput source="productImage" helperText="dropslot.products.image_hint" fullWidth />
        <ImagePreview />
        <BrandInput />
        <RetailersInput />
        <TextInput source="description" multiline minRows={2} fullWidth />
        {!creating && <TextInput source="slug" fullWidth />}
      </TabbedForm.Tab>
      <TabbedForm.Tab label="dropslot.products.tab_release">
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <DateTimeInput source="releaseAt" />
          <DateTimeInput source="restockUntil" helperText="dropslot.products.restock_hint" />
        </Box>
        <SelectInput
          source="releaseMode"
          choices={RELEASE_MODE_CHOICES}
          defaultValue="first-come"
          validate={required()}
        />
        <DateTimeInput source="entryOpensAt" />
        <DateTimeInput source="entryClosesAt" />
        <DateTimeInput source="queueOpensAt" />
        <NumberInput source="queueMinutes" step={1} />
        <NumberInput source="queueRatePerMinute" step={1} />
        <StockInputs creating={creating} />
        <BooleanInput source="avail" defaultValue={true} />
      </TabbedForm.Tab>
      <TabbedForm.Tab label="dropslot.products.tab_sizes">
        <RadioButtonGroupInput source="sizeType" choices={SIZE_TYPES} defaultValue="shoe" />
        <SizesInput />
        <TextInput source="styles" helperText="dropslot.products.styles_hint" fullWidth />
      </TabbedForm.Tab>
    </TabbedForm>
  )
}

/** Never send what the server owns (slots taken move only through orders). */
const SERVER_FIELDS = new Set([
  'stockTaken',
  'activeOrders',
  'createdAt',
  'updatedAt',
  'priceCents',
  'productId',
  'fill',
  'mode',
  'draw',
  'queue',
])
const withoutServerFields = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([field]) => !SERVER_FIELDS.has(field)))

export function ProductCreate() {
  return (
    <Create redirect="list" transform={withRetailerList}>
      <ProductForm creating />
    </Create>
  )
}

export function ProductEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      transform={(data: Record<string, unknown>) => withRetailerList(withoutServerFields(data))}
    >
      <ProductForm creating={false} />
    </Edit>
  )
}

export function ProductShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="productTitle" />
        <FunctionField source="tags" render={() => <TagChips />} />
        <FunctionField source="price" render={(record) => money(record.price)} />
        <FunctionField source="retailers" render={() => <RetailersTable />} />
        <FunctionField source="fill" render={() => <SlotBar />} />
        <FunctionField source="releaseAt" render={() => <ReleaseTime />} />
        <DateField source="restockUntil" showTime emptyText="—" />
        <DrawPanel />
        <QueuePanel />
        <ReportPanel />
        <ReferenceManyField
          reference="orders"
          target="productId"
          label="dropslot.customers.orders"
          perPage={10}
        >
          <Datagrid rowClick="show" bulkActionButtons={false}>
            <FunctionField
              label="resources.orders.fields.id"
              render={(record) => shortId(record.id)}
            />
            <TextField source="email" />
            <TextField source="size" />
            <FunctionField source="status" render={() => <StatusChip />} />
            <DateField source="orderDate" showTime />
          </Datagrid>
        </ReferenceManyField>
        <ShowButton />
      </SimpleShowLayout>
    </Show>
  )
}

export default {
  list: ProductList,
  create: ProductCreate,
  edit: ProductEdit,
  show: ProductShow,
  icon: InventoryIcon,
  recordRepresentation: 'productTitle',
}
