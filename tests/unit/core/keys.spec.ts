import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import paymentsConfig from '#config/payments'
import { jobRegistry, scheduleKey } from '#core/jobs/job'
import { emailKeys } from '#notifications/services/email_keys'
import { gatewayStepKey, type GatewayStep } from '#payments/gateways/payment_gateway'
import { legacyPaymentKeys, paymentKeys } from '#payments/services/payment_service'
import { taskIds } from '#release/services/task_ids'

/*
| Every key the code builds, listed: payment idempotency keys (`paymentKeys`), job dedupe ids
| (each job's `dedupeKey`, and the schedules'), the outbox's e-mail dedupe keys (`emailKeys`) and
| the checkout engines' task ids (`taskIds`). Each builder is called here (the samples are typed
| against the builders, so a new builder without a sample does not compile), the keys are checked
| for their shape and for never meeting a key of another purpose, and the source is scanned so
| that no key is built outside its builder.
*/
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const order = { id: 12, publicId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', holdRound: 1 }
const retried = { ...order, holdRound: 2 }
const userUuid = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'

type Samples<Builders> = {
  [K in keyof Builders]: Builders[K] extends (...args: infer A) => unknown ? A[] : never
}

const paymentSamples: Samples<typeof paymentKeys> = {
  hold: [[order], [order, 2]],
  holdRelease: [[order], [order, 2]],
  fee: [[order], [order, 2], [order, 3]],
  refund: [[order], [order, 2]],
  saveCard: [[userUuid, 'tok_sbx_1']],
  cardSetup: [[userUuid, 'seti_sbx_1']],
  deleteCustomer: [['cus_sbx_1']],
  cardToken: [['0c3f8a52-1d7e-4b6a-9f0e-2a4b6c8d0e1f']],
  lateRefund: [[order, 'pi_sbx_late_1']],
  retailerCancelRefund: [[order]],
}

const emailSamples: Samples<typeof emailKeys> = {
  orderRound: [
    [order, 'received'],
    [order, 'secured'],
    [order, 'failed'],
    [order, 'retried'],
    [order, 'corrected'],
    [retried, 'secured'],
    [retried, 'failed'],
    [retried, 'retried'],
  ],
  receipt: [[order]],
  drawEntered: [[order]],
  drawWon: [[order]],
  drawNotSelected: [[order]],
  drawPromoted: [[order]],
  holdDeclined: [[order]],
  holdNeedsConfirmation: [[order], [retried]],
  feeDeclined: [
    [order, 1],
    [order, 2],
  ],
  feeWaived: [[order]],
  retailerCancelled: [[order]],
  extraSuccess: [
    [order, 'kith'],
    [order, 'newbalance'],
  ],
  refund: [[paymentKeys.refund(order)], [paymentKeys.refund(order, 2)]],
  welcome: [[{ id: 7 }]],
  incident: [
    [{ id: 3 }, 'opened'],
    [{ id: 3 }, 'resolved'],
  ],
  newsletter: [['fan@example.test']],
}

/** A sample payload for every job that dedupes (a job added with a dedupeKey needs one here). */
const jobSamples: Record<string, Record<string, unknown>> = {
  'payments.place-hold': { orderId: 12 },
  'notifications.deliver-email': { messageId: 12 },
  'release.apply-results': { eventId: 'ab'.repeat(32), results: [] },
  'release.complete-result': { orderId: 12 },
  'release.retry-fee': { orderId: 12 },
  'payments.renew-hold': { orderId: 12 },
  'notifications.deliver-pings': { messageId: 12 },
  'admin.release-run': { productId: null, dryRun: false },
}

function call<B extends Record<string, (...args: any[]) => unknown>>(
  builders: B,
  samples: Samples<B>
) {
  const keys: { name: string; key: string }[] = []
  for (const name of Object.keys(builders) as (keyof B & string)[]) {
    for (const args of samples[name] as unknown[][]) {
      keys.push({ name, key: String(builders[name](...args)) })
    }
  }
  return keys
}

test.group('Keys: every key the code builds', () => {
  test('payment idempotency keys: this install, the order’s public id, one per call', ({
    assert,
  }) => {
    const keys = call(paymentKeys, paymentSamples)
    assert.sameMembers(Object.keys(paymentSamples), Object.keys(paymentKeys))
    for (const { name, key } of keys) {
      assert.isTrue(key.startsWith(`${paymentsConfig.installationId}-`), `${name}: ${key}`)
      assert.match(key, /^[A-Za-z0-9_-]+$/, name)
      // Stripe takes idempotency keys of at most 255 characters.
      assert.isAtMost(key.length, 255, name)
    }
    for (const { name, key } of keys.filter((item) =>
      ['hold', 'holdRelease', 'fee', 'refund'].includes(item.name)
    )) {
      assert.include(key, order.publicId, name)
      assert.notInclude(key, `-${order.id}-`, `${name} never carries the row id`)
    }
    assert.equal(paymentKeys.hold(order), `${paymentsConfig.installationId}-${order.publicId}-hold`)
    assert.equal(
      paymentKeys.fee(order, 2),
      `${paymentsConfig.installationId}-${order.publicId}-fee-2`
    )
    assert.equal(
      new Set(keys.map((item) => item.key)).size,
      keys.length,
      'no two calls share a key'
    )

    // The keys of earlier versions, still found in old ledger rows, never equal a new one.
    const legacy = Object.entries(legacyPaymentKeys).flatMap(([name, build]) =>
      (paymentSamples[name as keyof typeof paymentKeys] as unknown[][])
        .map((args) => (build as (...values: unknown[]) => string | null)(...args))
        .filter((key): key is string => key !== null)
    )
    assert.isNotEmpty(legacy)
    for (const key of legacy)
      assert.notInclude(
        keys.map((item) => item.key),
        key
      )

    // A card save Stripe makes in several requests: each its own key, derived from the call's.
    const cardSave = paymentKeys.saveCard(userUuid, 'tok_sbx_1')
    const steps: GatewayStep[] = ['customer', 'payment-method', 'setup', 'default']
    const stepKeys = steps.map((step) => gatewayStepKey(cardSave, step))
    assert.equal(new Set([...stepKeys, ...keys.map((item) => item.key)]).size, keys.length + 4)
    for (const key of stepKeys) assert.isTrue(key.startsWith(`${cardSave}:`))
  })

  test('job dedupe ids: one per job and subject, never shared between jobs', ({ assert }) => {
    const ids: string[] = []
    for (const name of jobRegistry.names) {
      const job = jobRegistry.find(name)!
      if (!job.dedupeKey) {
        assert.isFalse(name in jobSamples, `${name} has no dedupeKey any more`)
        continue
      }
      assert.isTrue(name in jobSamples, `${name} dedupes: give it a sample payload here`)
      const id = job.dedupeKey(jobSamples[name])
      assert.match(id, /^[a-z][a-z-]*(:[\w-]+)?$/, name)
      ids.push(id)
    }
    assert.lengthOf(ids, Object.keys(jobSamples).length, 'every sample is a registered job')
    assert.equal(new Set(ids).size, ids.length, ids.join(', '))
    assert.includeMembers(ids, ['hold:12', 'email:12', 'result:12', 'fee:12'])
    for (const schedule of jobRegistry.schedules) {
      const id = scheduleKey(schedule.id)
      assert.equal(id, `schedule:${schedule.id}`)
      assert.notInclude(ids, id)
    }
  })

  test('e-mail dedupe keys: once per order, kind and round (or attempt, or refund)', ({
    assert,
  }) => {
    const keys = call(emailKeys, emailSamples)
    assert.sameMembers(Object.keys(emailSamples), Object.keys(emailKeys))
    // The receipt is the first round's "received" message: the same key, by design.
    const unique = keys.filter((item) => item.name !== 'receipt')
    assert.equal(new Set(unique.map((item) => item.key)).size, unique.length)
    assert.equal(emailKeys.receipt(order), emailKeys.orderRound(order, 'received'))
    // The formats rows were written under before (an upgrade sends nothing twice).
    assert.equal(emailKeys.orderRound(order, 'secured'), 'order:12:secured')
    assert.equal(emailKeys.orderRound(retried, 'secured'), 'order:12:secured:r2')
    assert.equal(emailKeys.feeDeclined(order, 2), 'order:12:fee-declined:2')
    assert.equal(emailKeys.holdNeedsConfirmation(order), 'order:12:hold-needs-confirmation:1')
    assert.equal(emailKeys.welcome({ id: 7 }), 'user:7:welcome')
    assert.equal(emailKeys.refund(paymentKeys.refund(order)), `${paymentKeys.refund(order)}:email`)
    for (const { name, key } of keys) assert.isAtMost(key.length, 255, name)
  })

  test('task ids: one per order, round and retailer, read back to all three', ({ assert }) => {
    const first = taskIds.build(order.publicId, 1)
    const second = taskIds.build(order.publicId, 2)
    const atKith = taskIds.build(order.publicId, 2, 'kith')
    assert.equal(first, `task-${order.publicId}-1`)
    assert.equal(atKith, `task-${order.publicId}-2-kith`)
    assert.notEqual(first, second)
    assert.notEqual(second, atKith)
    assert.deepEqual(taskIds.parse(second), { orderId: order.publicId, round: 2, retailer: null })
    assert.deepEqual(taskIds.parse(atKith), {
      orderId: order.publicId,
      round: 2,
      retailer: 'kith',
    })
    assert.deepEqual(taskIds.parse(`task-${order.publicId}`), {
      orderId: order.publicId,
      round: null,
      retailer: null,
    })
    for (const bad of [
      null,
      12,
      'task-',
      `task-${order.publicId}-0`,
      `task-${order.publicId}-x`,
      `task-${order.publicId}-1-`,
      `task-${order.publicId}-1-kith!`,
      `${order.publicId}-1`,
    ]) {
      assert.isNull(taskIds.parse(bad), String(bad))
    }
  })

  test('no key is built outside its builder (source scan)', async ({ assert }) => {
    const builders = new Set([
      'app/payments/services/payment_keys.ts',
      'app/notifications/services/email_keys.ts',
      'app/release/services/task_ids.ts',
      'app/core/jobs/job.ts',
      'app/payments/gateways/payment_gateway.ts',
    ])
    const isJobFile = (path: string) => /^app\/\w+\/jobs\/\w+\.ts$/.test(path)
    const rules: { pattern: RegExp; what: string; allowed: (path: string) => boolean }[] = [
      {
        // A key's template literal: order:, user:, hold:, email:, fee:, result(s):, task-...
        pattern:
          /`(?:order|user|newsletter|hold|email|results?|fee|schedule|token|customer):\$\{|`task-\$\{/,
        what: 'a key built in a template literal',
        allowed: (path) => builders.has(path) || isJobFile(path),
      },
      {
        pattern: /\bdedupeId\b/,
        what: 'a job dedupe id passed by hand (jobs build their own: dedupeKey)',
        allowed: (path) => path.startsWith('app/core/jobs/'),
      },
      {
        pattern: /dedupeKey\s*:\s*[`'"]/,
        what: 'an e-mail dedupe key written as a literal (use emailKeys)',
        allowed: (path) => builders.has(path),
      },
      {
        pattern: /(?:idempotencyKey|\bkey)\s*:\s*[`'"]|`\$\{[\w.]*idempotencyKey\}/,
        what: 'a payment key written as a literal (use paymentKeys)',
        allowed: (path) => builders.has(path),
      },
      {
        pattern: /\binstallKey\(/,
        what: 'an install key outside paymentKeys',
        allowed: (path) => path === 'app/payments/services/payment_keys.ts',
      },
      {
        pattern: /['"]console-release-run['"]/,
        what: 'the console run’s job id outside its job',
        allowed: isJobFile,
      },
    ]
    const offences: string[] = []
    let scanned = 0
    for (const directory of ['app', 'cli', 'commands', 'start', 'config']) {
      for (const path of await sourceFiles(join(ROOT, directory))) {
        const name = relative(ROOT, path)
        const text = await readFile(path, 'utf8')
        const lines = text.split('\n')
        scanned++
        lines.forEach((line, index) => {
          if (/^\s*(\*|\/\/)/.test(line)) return
          for (const rule of rules) {
            if (rule.pattern.test(line) && !rule.allowed(name)) {
              offences.push(`${name}:${index + 1}: ${rule.what}: ${line.trim()}`)
            }
          }
        })
      }
    }
    assert.isAbove(scanned, 100)
    assert.deepEqual(offences, [])
  })
})

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => [])
  const files: string[] = []
  for (const entry of entries) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)))
    else if (/\.(ts|js)$/.test(entry.name)) files.push(path)
  }
  return files
}
