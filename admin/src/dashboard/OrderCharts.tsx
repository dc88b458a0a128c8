import { Box, Typography, useTheme } from '@mui/material'
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { useTranslate } from 'react-admin'
import { ORDER_STATUSES } from '@shared/vocabulary'
import type { DashboardSummary } from '@shared/api/contract'
import { Panel } from './Panel'

const STATUS_FILL: Record<string, string> = {
  pending: '#f59e0b',
  processing: '#3b82f6',
  success: '#10b981',
  fail: '#ef4444',
  cancelled: '#9ca3af',
}

/**
 * One bar segment per status, stacked under `stackId`: recharts reads its `Bar`s as direct
 * children, so these are elements, not a component of their own.
 */
function statusBars(
  translate: ReturnType<typeof useTranslate>,
  stackId: string,
  maxBarSize?: number
) {
  return ORDER_STATUSES.map((status) => (
    <Bar
      key={status}
      dataKey={status}
      name={translate(`dropslot.status.${status}`)}
      stackId={stackId}
      maxBarSize={maxBarSize}
      fill={STATUS_FILL[status]}
      isAnimationActive={false}
    />
  ))
}

export function StatusPie({ counts }: { counts: DashboardSummary['ordersByStatus'] }) {
  const translate = useTranslate()
  const data = ORDER_STATUSES.map((status) => ({
    status,
    name: translate(`dropslot.status.${status}`),
    value: counts[status] ?? 0,
  }))
  return (
    <Panel title={translate('dropslot.dashboard.orders_by_status')} fill>
      <Box sx={{ height: 280 }}>
        <ResponsiveContainer>
          <PieChart>
            <Pie
              data={data}
              dataKey="value"
              nameKey="name"
              innerRadius={60}
              outerRadius={100}
              paddingAngle={2}
              isAnimationActive={false}
            >
              {data.map((entry) => (
                <Cell key={entry.status} fill={STATUS_FILL[entry.status]} />
              ))}
            </Pie>
            <Tooltip />
            <Legend />
          </PieChart>
        </ResponsiveContainer>
      </Box>
    </Panel>
  )
}

export function OrdersByDay({ rows }: { rows: DashboardSummary['ordersByDay'] }) {
  const translate = useTranslate()
  const axis = useTheme().palette.text.secondary
  const byDay = rows.map((row) => ({
    ...row,
    label: new Date(`${row.day}T12:00:00`).toLocaleDateString(undefined, {
      month: 'short',
      day: 'numeric',
    }),
  }))
  return (
    <Panel title={translate('dropslot.dashboard.orders_by_day')}>
      <Box sx={{ height: 280, pr: 2 }}>
        <ResponsiveContainer>
          <BarChart data={byDay}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fill: axis, fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fill: axis, fontSize: 12 }} />
            <Tooltip />
            <Legend />
            {statusBars(translate, 'orders')}
          </BarChart>
        </ResponsiveContainer>
      </Box>
    </Panel>
  )
}

export function RecentReleases({ releases }: { releases: DashboardSummary['recentReleases'] }) {
  const translate = useTranslate()
  const axis = useTheme().palette.text.secondary
  return (
    <Panel title={translate('dropslot.dashboard.recent')} fill>
      <Box sx={{ height: 280, pr: 2 }}>
        {releases.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2 }}>
            —
          </Typography>
        ) : (
          <ResponsiveContainer>
            <BarChart
              layout="vertical"
              data={releases.map((product) => ({
                name:
                  product.productTitle.length > 28
                    ? `${product.productTitle.slice(0, 27)}…`
                    : product.productTitle,
                ...product.orders,
              }))}
            >
              <XAxis type="number" allowDecimals={false} tick={{ fill: axis, fontSize: 12 }} />
              <YAxis
                type="category"
                dataKey="name"
                width={170}
                tick={{ fill: axis, fontSize: 12 }}
              />
              <Tooltip />
              {statusBars(translate, 'r', 28)}
            </BarChart>
          </ResponsiveContainer>
        )}
      </Box>
    </Panel>
  )
}
