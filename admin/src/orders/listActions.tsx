import {
  BulkExportButton,
  CreateButton,
  ExportButton,
  FilterButton,
  SelectColumnsButton,
  TopToolbar,
} from 'react-admin'
import { BulkResendButton, ResendAllButton } from './actions'
import { Can } from '../components/Can'

/** The order list's toolbar: what writes is shown to the roles that may (shared/staff_roles). */
export const OrderListActions = () => (
  <TopToolbar>
    <FilterButton />
    <SelectColumnsButton />
    <Can permission="orders">
      <ResendAllButton />
      <CreateButton />
    </Can>
    <ExportButton />
  </TopToolbar>
)

export const OrderBulkActions = () => (
  <>
    <Can permission="orders">
      <BulkResendButton />
    </Can>
    <BulkExportButton />
  </>
)
