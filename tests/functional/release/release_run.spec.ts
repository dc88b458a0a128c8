import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Order from '#orders/models/order'
import EmailMessage from '#notifications/models/email_message'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { releaseRunner } from '#release/services/release_runner'
import { releaseLock } from '#release/services/release_lock'
import { releaseConfig } from '#release/services/release_config'
import { SimulatorEngine, type CheckoutEngine } from '#release/services/checkout_engines'
import { releasedProductWithOrders } from '#tests/support/release'
import { saveCardFor, TEST_CARDS } from '#tests/helpers'
import { paymentKeys } from '#payments/services/payment_service'

/** One column of an order as it is now in the database. */
async function field(id: number, name: keyof Order) {
  const order = await Order.findOrFail(id)
  return order[name]
}

async function templatesOf(orderId: number) {
  const emails = await emailsOf(orderId)
  return emails.map((email) => email.template)
}

/** Ledger rows and e-mails of these orders (other work may write its own meanwhile). */
async function countOf(
  model: typeof PaymentLedgerEntry | typeof EmailMessage,
  orders: { id: number }[]
) {
  const ids = orders.map((order) => order.id)
  const rows = await model.query().whereIn('order_id', ids).count('* as total')
  return Number(rows[0].$extras.total)
}

const always = (status: 'success' | 'fail'): CheckoutEngine => ({
  name: 'simulator',
  needsCardData: false,
  submit: async (task) =>
    status === 'success'
      ? { status, confirmationNumber: `CONF-${task.orderId.slice(0, 8)}` }
      : { status, reason: 'Sold out before checkout.' },
})

async function feeRows(orderId: number) {
  return PaymentLedgerEntry.query().where('order_id', orderId).where('kind', 'fee')
}

async function emailsOf(orderId: number) {
  return EmailMessage.query().where('order_id', orderId).orderBy('id', 'asc')
}

test.group('Release run: simulator engine', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('submits released orders; successes pay the fee once, failures never', async ({
    assert,
  }) => {
    const { product, orders } = await releasedProductWithOrders(6)
    const { successRate, seed } = releaseConfig().simulator
    const expected = new Map(
      orders.map((order) => [
        order.id,
        SimulatorEngine.outcome(order.publicId, successRate, seed).status,
      ])
    )

    const report = await releaseRunner.run({ productId: product.id })
    assert.equal(report.status, 'finished')
    assert.equal(report.submitted, 6)
    const successes = [...expected.values()].filter((status) => status === 'success').length
    assert.equal(report.succeeded, successes)
    assert.equal(report.failed, 6 - successes)
    assert.equal(report.feesCharged, successes)

    for (const original of orders) {
      const order = await Order.findOrFail(original.id)
      const fees = await feeRows(order.id)
      const templates = await templatesOf(order.id)
      assert.equal(order.holdStatus, 'released')
      if (expected.get(order.id) === 'success') {
        assert.equal(order.status, 'success')
        assert.match(order.confirmationNumber!, /^SIM-\d{9}$/)
        assert.equal(order.feeStatus, 'paid')
        assert.lengthOf(fees, 1)
        assert.equal(fees[0].status, 'succeeded')
        assert.equal(fees[0].amountCents, 2500)
        assert.deepEqual(templates, ['order_received', 'order_secured'])
      } else {
        assert.equal(order.status, 'fail')
        assert.equal(order.feeStatus, 'none')
        assert.lengthOf(fees, 0)
        assert.deepEqual(templates, ['order_received', 'order_failed'])
      }
    }

    // A re-run changes nothing: no submission, no ledger row, no e-mail.
    const ledgerBefore = await countOf(PaymentLedgerEntry, orders)
    const outboxBefore = await countOf(EmailMessage, orders)
    const again = await releaseRunner.run({ productId: product.id })
    assert.equal(again.submitted, 0)
    assert.equal(again.succeeded + again.failed + again.resumed, 0)
    assert.deepEqual(await countOf(PaymentLedgerEntry, orders), ledgerBefore)
    assert.deepEqual(await countOf(EmailMessage, orders), outboxBefore)

    const status = await releaseRunner.status(product.id)
    assert.equal(status.statuses.success, successes)
    assert.equal(status.statuses.fail, 6 - successes)
    assert.equal(status.statuses.pending, 0)
    assert.equal(status.feesCharged, successes)
    assert.equal(status.feesChargedCents, successes * 2500)
    assert.equal(status.holdsOpen, 0)
  })

  test('a dry run and an unreleased product change nothing', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(2)
    const dry = await releaseRunner.run({ productId: product.id, dryRun: true })
    assert.equal(dry.plan!.readyToSubmit, 2)
    for (const order of orders) assert.equal(await field(order.id, 'status'), 'pending')

    await db
      .from('products')
      .where('id', product.id)
      .update({ release_at: DateTime.now().plus({ hours: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    await assert.rejects(() => releaseRunner.run({ productId: product.id }), /is not released yet/)
    const everything = await releaseRunner.run()
    assert.equal(everything.submitted, 0)
  })

  test('a declined fee leaves the order successful with the fee due; a later run retries it', async ({
    assert,
  }) => {
    const { product, orders, customers } = await releasedProductWithOrders(1)
    // The customer swapped to a card that saves but declines charges after the hold was placed.
    await saveCardFor(customers[0].user, TEST_CARDS.declinesCharges)

    const first = await releaseRunner.run({ productId: product.id, engine: always('success') })
    assert.equal(first.succeeded, 1)
    assert.equal(first.feesDue, 1)
    let order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'failed')
    assert.equal(order.holdStatus, 'released')
    assert.deepEqual(await templatesOf(order.id), ['order_received', 'fee_declined'])
    const status = await releaseRunner.status(product.id)
    assert.equal(status.feesDue, 1)

    // Not retried before FEE_RETRY_MINUTES have passed...
    const soon = await releaseRunner.run({ productId: product.id })
    assert.equal(soon.feeRetries, 0)

    // ...then retried with the next idempotency key, once the customer fixed the card.
    await db
      .from('orders')
      .where('id', order.id)
      .update({
        updated_at: DateTime.now().minus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      })
    await saveCardFor(customers[0].user, TEST_CARDS.ok)
    const later = await releaseRunner.run({ productId: product.id })
    assert.equal(later.feeRetries, 1)
    assert.equal(later.feesCharged, 1)
    order = await Order.findOrFail(order.id)
    assert.equal(order.feeStatus, 'paid')
    const fees = await feeRows(order.id)
    assert.deepEqual(
      fees.map((fee) => [fee.idempotencyKey, fee.status]),
      [
        [paymentKeys.fee(order), 'failed'],
        [paymentKeys.fee(order, 2), 'succeeded'],
      ]
    )
    assert.deepEqual(await templatesOf(order.id), [
      'order_received',
      'fee_declined',
      'order_secured',
    ])
  })

  test('a run holding the lock keeps others out until it expires', async ({ assert }) => {
    const { product, orders } = await releasedProductWithOrders(1)
    assert.isTrue(await releaseLock.acquire('release:run', 'other-host:1', 60_000))
    const blocked = await releaseRunner.run({ productId: product.id, engine: always('fail') })
    assert.equal(blocked.status, 'skipped')
    assert.equal(blocked.lockedBy, 'other-host:1')
    assert.equal(await field(orders[0].id, 'status'), 'pending')

    // The holder died (no heartbeat): its lock lapses and the next run takes over.
    await db.from('locks').update({ expiration: Date.now() - 1 })
    const next = await releaseRunner.run({ productId: product.id, engine: always('fail') })
    assert.equal(next.status, 'finished')
    assert.equal(next.failed, 1)
    assert.isNull(await releaseLock.holder('release:run'))
    const order = await Order.findOrFail(orders[0].id)
    assert.equal(order.status, 'fail')
    assert.equal(order.failReason, 'Sold out before checkout.')
  })
})
