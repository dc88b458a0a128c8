import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import PaymentLedgerEntry from '#payments/models/payment_ledger_entry'
import { ledger, LedgerKeyConflictError } from '#payments/services/ledger'

const call = (key: string, amountCents: number, kind: 'refund' | 'fee' = 'refund') =>
  ledger.begin({ key, kind, gateway: 'sandbox', orderId: null, userId: null, amountCents })

test.group('Payment ledger: one call per key, rows only move forward', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a key written for one amount is refused for another, and for another kind', async ({
    assert,
  }) => {
    const first = await call('ledger-test-refund-1', 1000)
    const again = await call('ledger-test-refund-1', 1000)
    assert.equal(again.id, first.id)
    assert.equal(again.attempts, 2)

    const otherAmount = await call('ledger-test-refund-1', 500).catch((error) => error)
    assert.instanceOf(otherAmount, LedgerKeyConflictError)
    assert.equal(otherAmount.status, 409)
    assert.equal(otherAmount.code, 'idempotency_key_conflict')
    const otherKind = await call('ledger-test-refund-1', 1000, 'fee').catch((error) => error)
    assert.instanceOf(otherKind, LedgerKeyConflictError)

    // Nothing was written for the refused calls: one row, with the first amount.
    const rows = await PaymentLedgerEntry.query().where('idempotency_key', 'ledger-test-refund-1')
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].amountCents, 1000)
    assert.equal(rows[0].kind, 'refund')
    assert.equal(rows[0].attempts, 2)
  })

  test('a succeeded row is never overwritten by a failure reported later', async ({ assert }) => {
    const entry = await call('ledger-test-refund-2', 700)
    // Another process's copy of the same row, read before the call finished.
    const stale = await PaymentLedgerEntry.findOrFail(entry.id)

    assert.isTrue(await ledger.succeed(entry, 're_sbx_first'))
    assert.isFalse(await ledger.fail(stale, 'charge_already_refunded', 'a late error'))
    assert.isFalse(await ledger.noteRetry(stale, 'api_connection_error', 'a late timeout'))
    assert.isFalse(await ledger.succeed(stale, 're_sbx_second'))

    const row = await PaymentLedgerEntry.findOrFail(entry.id)
    assert.equal(row.status, 'succeeded')
    assert.equal(row.gatewayRef, 're_sbx_first')
    assert.isNull(row.errorCode)
    // The stale copy now shows the row as it is.
    assert.equal(stale.status, 'succeeded')
    assert.equal(stale.gatewayRef, 're_sbx_first')
  })

  test('started -> failed; a failed row becomes succeeded only when the payment landed', async ({
    assert,
  }) => {
    const entry = await call('ledger-test-fee-1', 2500, 'fee')
    assert.isTrue(await ledger.fail(entry, 'authentication_required', 'needs 3DS', 'pi_sbx_kept'))
    assert.equal(entry.status, 'failed')
    assert.equal(entry.gatewayRef, 'pi_sbx_kept')
    // Our own later call cannot flip it...
    assert.isFalse(await ledger.succeed(entry, 'pi_sbx_other'))
    assert.equal(entry.status, 'failed')
    // ...the gateway, read back, reporting the payment went through after all, does.
    assert.isTrue(await ledger.landed(entry, 'pi_sbx_kept'))
    assert.equal(entry.status, 'succeeded')
    assert.equal(entry.errorCode, 'landed_late')
    assert.isFalse(await ledger.fail(entry, 'card_declined', 'late decline'))
    const row = await PaymentLedgerEntry.findOrFail(entry.id)
    assert.equal(row.status, 'succeeded')
  })
})
