import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material'
import { Link, useTranslate } from 'react-admin'
import type { DashboardSummary } from '@shared/api/contract'
import { SlotBar, localTime, relativeTime } from '../components/common'
import { Panel } from './Panel'

/** The next releases: when, how many slots are taken, and the orders still active. */
export function UpcomingTable({ upcoming }: { upcoming: DashboardSummary['upcoming'] }) {
  const translate = useTranslate()
  return (
    <Panel title={translate('dropslot.dashboard.upcoming')}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('dropslot.dashboard.col_product')}</TableCell>
            <TableCell>{translate('dropslot.dashboard.col_release')}</TableCell>
            <TableCell sx={{ width: 180 }}>{translate('dropslot.dashboard.col_slots')}</TableCell>
            <TableCell align="right">{translate('dropslot.dashboard.col_active')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {upcoming.map((product) => (
            <TableRow key={product.id} hover>
              <TableCell>
                <Link to={`/products/${product.id}`}>{product.productTitle}</Link>
              </TableCell>
              <TableCell>
                <Typography variant="body2">
                  {localTime(product.releaseAt, {
                    weekday: 'short',
                    month: 'short',
                    day: 'numeric',
                    hour: '2-digit',
                    minute: '2-digit',
                  })}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {relativeTime(product.releaseAt)}
                </Typography>
              </TableCell>
              <TableCell>
                <SlotBar taken={product.stockTaken} total={product.totalStock} />
              </TableCell>
              <TableCell align="right">{product.activeOrders ?? 0}</TableCell>
            </TableRow>
          ))}
          {upcoming.length === 0 && (
            <TableRow>
              <TableCell colSpan={4}>{translate('dropslot.dashboard.no_upcoming')}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Panel>
  )
}
