import { test } from '@japa/runner'
import { compare } from '#payments/services/reconciliation'
import type { GatewayMoney } from '#payments/gateways/payment_gateway'
import type { MoneyRow } from '#payments/services/ledger'

const orders = [
  { id: 1, publicId: 'order-a', number: 'DS-AAAAAA' },
  { id: 2, publicId: 'order-b', number: 'DS-BBBBBB' },
]
const at = new Date('2026-01-01T00:00:00Z')
const fee = (id: number, orderId: number, ref: string, amountCents: number): MoneyRow => ({
  id,
  orderId,
  kind: 'fee',
  amountCents,
  gatewayRef: ref,
  gateway: 'stripe',
})
const refund = (id: number, orderId: number, ref: string, amountCents: number): MoneyRow => ({
  ...fee(id, orderId, ref, amountCents),
  kind: 'refund',
})
const charge = (id: string, paymentId: string, amountCents: number, order: string | null) =>
  ({
    type: 'charge',
    id,
    paymentId,
    amountCents,
    orderPublicId: order,
    purpose: 'fee',
    createdAt: at,
  }) satisfies GatewayMoney
const gatewayRefund = (id: string, paymentId: string, amountCents: number) =>
  ({
    type: 'refund',
    id,
    paymentId,
    amountCents,
    orderPublicId: null,
    purpose: 'refund',
    createdAt: at,
  }) satisfies GatewayMoney

test.group('Reconciliation: the ledger against the gateway, to the cent', () => {
  test("Stripe's charges (ch_) match our fees by their PaymentIntent, refunds by their id", ({
    assert,
  }) => {
    const result = compare(
      orders,
      [fee(10, 1, 'pi_1', 2500), fee(11, 2, 'pi_2', 3000), refund(12, 1, 're_1', 700)],
      [
        charge('ch_1', 'pi_1', 2500, 'order-a'),
        charge('ch_2', 'pi_2', 3000, 'order-b'),
        gatewayRefund('re_1', 'pi_1', 700),
        // Someone else's money in the same account is not ours to reconcile.
        charge('ch_other', 'pi_other', 999, 'order-z'),
      ],
      { gateway: 'stripe', since: at }
    )
    assert.isTrue(result.balanced)
    assert.equal(result.matched, 3)
    assert.deepEqual(result.ledger, { chargedCents: 5500, refundedCents: 700, netCents: 4800 })
    assert.deepEqual(result.gatewayRecords, result.ledger)
  })

  test('every kind of difference is listed with the order and both amounts', ({ assert }) => {
    const result = compare(
      orders,
      [fee(10, 1, 'pi_1', 2500), fee(11, 2, 'pi_2', 3000), refund(12, 1, 're_1', 700)],
      [
        charge('ch_1', 'pi_1', 2499, 'order-a'),
        // pi_2's charge is missing at the gateway; an extra capture (a $1.00 check) is there.
        { ...charge('ch_hold', 'pi_hold', 100, 'order-b'), purpose: 'hold' },
        gatewayRefund('re_1', 'pi_1', 700),
        gatewayRefund('re_extra', 'pi_1', 50),
      ],
      { gateway: 'stripe', since: at }
    )
    assert.isFalse(result.balanced)
    assert.sameDeepMembers(
      result.differences.map((item) => [
        item.kind,
        item.money,
        item.orderNumber,
        item.ledgerCents,
        item.gatewayCents,
        item.differenceCents,
      ]),
      [
        ['amount_differs', 'charge', 'DS-AAAAAA', 2500, 2499, -1],
        ['missing_at_gateway', 'charge', 'DS-BBBBBB', 3000, null, -3000],
        ['missing_in_ledger', 'charge', 'DS-BBBBBB', null, 100, 100],
        ['missing_in_ledger', 'refund', 'DS-AAAAAA', null, 50, -50],
      ]
    )
    assert.include(result.differences.find((item) => item.gatewayRef === 'ch_hold')!.note, '(hold)')
  })
})
