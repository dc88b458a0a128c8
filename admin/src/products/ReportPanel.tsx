import { useEffect, useState } from 'react'
import {
  Alert,
  Box,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { useRecordContext, useTranslate } from 'react-admin'
import { httpClient } from '../http'
import type { ConsoleReleaseReport } from '@shared/api/contract'
import { API_URL } from '../dataProvider'
import { cents } from '../components/common'

type ConsoleReport = ConsoleReleaseReport

/**
 * A released product's outcome report as the console sees it (open or settled): the figures,
 * the checks, and the ledger reconciled with the gateway's own records, each difference listed.
 */
export function ReportPanel() {
  const record = useRecordContext()
  const translate = useTranslate()
  const [report, setReport] = useState<ConsoleReport | null>(null)
  const [error, setError] = useState<string | null>(null)
  const released = record?.releaseAt && new Date(record.releaseAt) <= new Date()
  useEffect(() => {
    if (!record?.id || !released) return
    httpClient(`${API_URL}/releases/${record.id}/report`)
      .then(({ json }) => setReport(json as ConsoleReport))
      .catch((failure: Error) => setError(failure.message))
  }, [record?.id, released])
  if (!record) return null
  if (!released) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 2 }}>
        {translate('dropslot.report.not_released')}
      </Typography>
    )
  }
  if (error) return <Alert severity="error">{error}</Alert>
  if (!report) return null
  const rate = report.successRate === null ? '–' : `${(report.successRate * 100).toFixed(1)} %`
  const reconciliation = report.reconciliation
  return (
    <Box sx={{ my: 2 }} data-testid="report-panel">
      <Typography variant="h6">{translate('dropslot.report.title')}</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {report.settled
          ? translate('dropslot.report.settled', { url: `/releases/${record.id}` })
          : report.open === 0 && report.product.restockUntil
            ? translate('dropslot.report.restocking', {
                until: new Date(report.product.restockUntil).toLocaleString(),
              })
            : translate('dropslot.report.open', { open: report.open })}
      </Typography>
      <Typography variant="body2">
        {translate('dropslot.report.figures', {
          orders: report.orders,
          submitted: report.submitted,
          succeeded: report.succeeded,
          rate,
          failed: report.failed.total,
          soldOut: report.failed.soldOut,
          declined: report.failed.declined,
          address: report.failed.address,
          aboveCap: report.failed.aboveCap,
          other: report.failed.other,
          cancelled: report.cancelledAfterSuccess,
          notSubmitted: report.notSubmitted,
        })}
      </Typography>
      <Typography variant="body2">
        {translate('dropslot.report.fees', {
          charged: cents(report.fees.chargedCents),
          refunded: cents(report.fees.refundedCents),
          net: cents(report.fees.netCents),
          due: cents(report.fees.dueCents),
        })}
      </Typography>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {translate('dropslot.report.checks')}
      </Typography>
      <Stack component="ul" sx={{ m: 0, pl: 2 }}>
        {report.checks.map((check) => (
          <Typography
            component="li"
            variant="body2"
            key={check.name}
            color={check.ok ? 'success.main' : 'error'}
          >
            {check.ok ? '✓' : '✗'} {check.name}: {check.detail}
          </Typography>
        ))}
      </Stack>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {translate('dropslot.report.reconciliation', { gateway: reconciliation.gateway })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('dropslot.report.ledger_totals', {
          charged: cents(reconciliation.ledger.chargedCents),
          refunded: cents(reconciliation.ledger.refundedCents),
        })}{' '}
        ·{' '}
        {translate('dropslot.report.gateway_totals', {
          charged: cents(reconciliation.gatewayRecords.chargedCents),
          refunded: cents(reconciliation.gatewayRecords.refundedCents),
        })}
      </Typography>
      {reconciliation.balanced ? (
        <Alert severity="success" sx={{ mt: 1 }} data-testid="reconciliation">
          {translate('dropslot.report.balanced', { matched: reconciliation.matched })}
        </Alert>
      ) : (
        <Box data-testid="reconciliation">
          <Alert severity="error" sx={{ mt: 1 }}>
            {translate('dropslot.report.unbalanced', {
              smart_count: reconciliation.differences.length,
            })}
          </Alert>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('dropslot.report.col_order')}</TableCell>
                <TableCell>{translate('dropslot.report.col_kind')}</TableCell>
                <TableCell align="right">{translate('dropslot.report.col_ledger')}</TableCell>
                <TableCell align="right">{translate('dropslot.report.col_gateway')}</TableCell>
                <TableCell>{translate('dropslot.report.col_ref')}</TableCell>
                <TableCell>{translate('dropslot.report.col_note')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {reconciliation.differences.map((difference, index) => (
                <TableRow key={index}>
                  <TableCell>{difference.orderNumber ?? '—'}</TableCell>
                  <TableCell>
                    {translate(`dropslot.report.kind_${difference.kind}`)} ({difference.money})
                  </TableCell>
                  <TableCell align="right">
                    {difference.ledgerCents === null ? '—' : cents(difference.ledgerCents)}
                  </TableCell>
                  <TableCell align="right">
                    {difference.gatewayCents === null ? '—' : cents(difference.gatewayCents)}
                  </TableCell>
                  <TableCell>{difference.gatewayRef ?? '—'}</TableCell>
                  <TableCell>{difference.note}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  )
}
