import type { GatewayMoney } from '#payments/gateways/payment_gateway'
import { gateway } from '#payments/services/gateway'
import { ledger, type MoneyRow } from '#payments/services/ledger'

/** The orders reconciled: their row id, public id and the number customers read. */
export type ReconciledOrder = { id: number; publicId: string; number: string }

export type ReconciliationDifference = {
  /**
   * `missing_at_gateway`: our ledger says it went through, the gateway has no record of it;
   * `missing_in_ledger`: the gateway moved money for one of these orders we have no row for;
   * `amount_differs`: both have it, not for the same amount.
   */
  kind: 'missing_at_gateway' | 'missing_in_ledger' | 'amount_differs'
  /** A fee charged, or a refund. */
  money: 'charge' | 'refund'
  orderNumber: string | null
  ledgerEntryId: number | null
  gatewayRef: string | null
  ledgerCents: number | null
  gatewayCents: number | null
  differenceCents: number
  note: string
}

export type Reconciliation = {
  gateway: string
  since: string
  ledger: { chargedCents: number; refundedCents: number; netCents: number }
  gatewayRecords: { chargedCents: number; refundedCents: number; netCents: number }
  matched: number
  differences: ReconciliationDifference[]
  /** True when every cent matches and nothing is missing on either side. */
  balanced: boolean
}

const cents = (value: number) => `$${(value / 100).toFixed(2)}`

/**
 * Our ledger against the gateway's own records, to the cent (the console's release report):
 * every succeeded fee and refund row of the orders must be a charge or refund the gateway has,
 * for the same amount, and every charge or refund the gateway made for those orders must be a
 * row of ours. The sandbox's records are its tables; Stripe's, its balance transactions. Each
 * difference is listed, with the order and both amounts.
 */
export class ReconciliationService {
  async reconcile(orders: ReconciledOrder[], since: Date): Promise<Reconciliation> {
    const rows = await ledger.moneyRowsFor(orders.map((order) => order.id))
    const records = await gateway().moneyMoved(since)
    return compare(orders, rows, records, { gateway: gateway().name, since })
  }
}

/** Both sides of the comparison, as the comparison looks them up. */
type Sides = {
  /** Our succeeded fee rows and refund rows. */
  fees: MoneyRow[]
  refunds: MoneyRow[]
  /** The gateway's charges and refunds that are about these orders. */
  charges: GatewayMoney[]
  gatewayRefunds: GatewayMoney[]
  chargeByPayment: Map<string, GatewayMoney[]>
  refundById: Map<string, GatewayMoney>
  /** The order's number: from our row, the order id the gateway kept, or the payment refunded. */
  numberOf: (row: MoneyRow | null, record: GatewayMoney | null) => string | null
}

type Outcome = { matched: number; differences: ReconciliationDifference[] }

function sidesOf(orders: ReconciledOrder[], rows: MoneyRow[], records: GatewayMoney[]): Sides {
  const byId = new Map(orders.map((order) => [order.id, order]))
  const byPublicId = new Map(orders.map((order) => [order.publicId, order]))
  const fees = rows.filter((row) => row.kind === 'fee')
  const refunds = rows.filter((row) => row.kind === 'refund')
  const feeRefs = new Map(fees.map((row) => [row.gatewayRef ?? `#${row.id}`, row]))
  const refundRefs = new Map(refunds.map((row) => [row.gatewayRef ?? `#${row.id}`, row]))

  // The gateway's records that are about these orders: ours by reference, or by the order id
  // the gateway kept; a refund also by the payment it refunds.
  const charges = records.filter(
    (record) =>
      record.type === 'charge' &&
      (feeRefs.has(record.paymentId) ||
        (record.orderPublicId !== null && byPublicId.has(record.orderPublicId)))
  )
  const chargedPayments = new Set(charges.map((record) => record.paymentId))
  const gatewayRefunds = records.filter(
    (record) =>
      record.type === 'refund' &&
      (refundRefs.has(record.id) ||
        feeRefs.has(record.paymentId) ||
        chargedPayments.has(record.paymentId) ||
        (record.orderPublicId !== null && byPublicId.has(record.orderPublicId)))
  )
  const chargeByPayment = new Map<string, GatewayMoney[]>()
  for (const record of charges) {
    chargeByPayment.set(record.paymentId, [
      ...(chargeByPayment.get(record.paymentId) ?? []),
      record,
    ])
  }
  const refundById = new Map(gatewayRefunds.map((record) => [record.id, record]))
  const numberOf = (row: MoneyRow | null, record: GatewayMoney | null): string | null => {
    if (row) return byId.get(row.orderId)?.number ?? null
    if (!record) return null
    if (record.orderPublicId && byPublicId.has(record.orderPublicId)) {
      return byPublicId.get(record.orderPublicId)!.number
    }
    const feeRow = feeRefs.get(record.paymentId)
    if (feeRow) return byId.get(feeRow.orderId)?.number ?? null
    const paid = chargeByPayment.get(record.paymentId)?.[0]
    return paid?.orderPublicId ? (byPublicId.get(paid.orderPublicId)?.number ?? null) : null
  }
  return { fees, refunds, charges, gatewayRefunds, chargeByPayment, refundById, numberOf }
}

/** Every fee row against the gateway's charges for its payment, then the charges left over. */
function compareCharges({ fees, charges, chargeByPayment, numberOf }: Sides): Outcome {
  const differences: ReconciliationDifference[] = []
  let matched = 0
  const usedCharges = new Set<GatewayMoney>()
  for (const row of fees) {
    const found = row.gatewayRef ? (chargeByPayment.get(row.gatewayRef) ?? []) : []
    const total = found.reduce((sum, record) => sum + record.amountCents, 0)
    for (const record of found) usedCharges.add(record)
    if (found.length === 0) {
      differences.push({
        kind: 'missing_at_gateway',
        money: 'charge',
        orderNumber: numberOf(row, null),
        ledgerEntryId: row.id,
        gatewayRef: row.gatewayRef,
        ledgerCents: row.amountCents,
        gatewayCents: null,
        differenceCents: -row.amountCents,
        note: `The ledger has a fee of ${cents(row.amountCents)} charged; the gateway has no charge for it.`,
      })
    } else if (total !== row.amountCents) {
      differences.push({
        kind: 'amount_differs',
        money: 'charge',
        orderNumber: numberOf(row, found[0]),
        ledgerEntryId: row.id,
        gatewayRef: row.gatewayRef,
        ledgerCents: row.amountCents,
        gatewayCents: total,
        differenceCents: total - row.amountCents,
        note: `The ledger charged ${cents(row.amountCents)}, the gateway ${cents(total)}.`,
      })
    } else {
      matched++
    }
  }
  for (const record of charges) {
    if (usedCharges.has(record)) continue
    differences.push({
      kind: 'missing_in_ledger',
      money: 'charge',
      orderNumber: numberOf(null, record),
      ledgerEntryId: null,
      gatewayRef: record.id,
      ledgerCents: null,
      gatewayCents: record.amountCents,
      differenceCents: record.amountCents,
      note:
        `The gateway captured ${cents(record.amountCents)}` +
        (record.purpose ? ` (${record.purpose})` : '') +
        ' for this order; the ledger has no fee charged for it.',
    })
  }
  return { matched, differences }
}

/** Every refund row against the gateway's refund it names, then the refunds left over. */
function compareRefunds({ refunds, gatewayRefunds, refundById, numberOf }: Sides): Outcome {
  const differences: ReconciliationDifference[] = []
  let matched = 0
  const usedRefunds = new Set<string>()
  for (const row of refunds) {
    const record = row.gatewayRef ? refundById.get(row.gatewayRef) : undefined
    if (record) usedRefunds.add(record.id)
    if (!record) {
      differences.push({
        kind: 'missing_at_gateway',
        money: 'refund',
        orderNumber: numberOf(row, null),
        ledgerEntryId: row.id,
        gatewayRef: row.gatewayRef,
        ledgerCents: row.amountCents,
        gatewayCents: null,
        differenceCents: row.amountCents,
        note: `The ledger has a refund of ${cents(row.amountCents)}; the gateway has no such refund.`,
      })
    } else if (record.amountCents !== row.amountCents) {
      differences.push({
        kind: 'amount_differs',
        money: 'refund',
        orderNumber: numberOf(row, record),
        ledgerEntryId: row.id,
        gatewayRef: record.id,
        ledgerCents: row.amountCents,
        gatewayCents: record.amountCents,
        differenceCents: row.amountCents - record.amountCents,
        note: `The ledger refunded ${cents(row.amountCents)}, the gateway ${cents(record.amountCents)}.`,
      })
    } else {
      matched++
    }
  }
  for (const record of gatewayRefunds) {
    if (usedRefunds.has(record.id)) continue
    differences.push({
      kind: 'missing_in_ledger',
      money: 'refund',
      orderNumber: numberOf(null, record),
      ledgerEntryId: null,
      gatewayRef: record.id,
      ledgerCents: null,
      gatewayCents: record.amountCents,
      differenceCents: -record.amountCents,
      note: `The gateway refunded ${cents(record.amountCents)} of payment ${record.paymentId}; the ledger has no such refund.`,
    })
  }
  return { matched, differences }
}

function moneyTotals(charged: { amountCents: number }[], refunded: { amountCents: number }[]) {
  const sum = (items: { amountCents: number }[]) =>
    items.reduce((total, item) => total + item.amountCents, 0)
  const chargedCents = sum(charged)
  const refundedCents = sum(refunded)
  return { chargedCents, refundedCents, netCents: chargedCents - refundedCents }
}

/** The comparison itself, apart from where the two sides come from. */
export function compare(
  orders: ReconciledOrder[],
  rows: MoneyRow[],
  records: GatewayMoney[],
  context: { gateway: string; since: Date }
): Reconciliation {
  const sides = sidesOf(orders, rows, records)
  const charged = compareCharges(sides)
  const refunded = compareRefunds(sides)
  const differences = [...charged.differences, ...refunded.differences]
  return {
    gateway: context.gateway,
    since: context.since.toISOString(),
    ledger: moneyTotals(sides.fees, sides.refunds),
    gatewayRecords: moneyTotals(sides.charges, sides.gatewayRefunds),
    matched: charged.matched + refunded.matched,
    differences,
    balanced: differences.length === 0,
  }
}

export const reconciliationService = new ReconciliationService()
