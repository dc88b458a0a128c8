import { test } from '@japa/runner'
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { resolvePaymentsSettings, INSTALLATION_ID_PATTERN } from '#payments/settings'
import { resolveCheckoutSecrets } from '#release/settings'
// @ts-expect-error plain JavaScript module of the start script, without type declarations
import { ensureEnvFile, readEnvFile } from '../../../scripts/env_file.js'

const base = {
  nodeEnv: 'production',
  gateway: 'sandbox',
  gatewayExplicit: true,
  allowSandboxInProduction: true,
  appKey: 'k'.repeat(43),
  installationId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  sandboxWebhookSecret: `whsec_${'ab12'.repeat(12)}`,
}

test.group('Payments settings: per-install secrets and ids', () => {
  test('production with its own installation id and webhook secret starts', ({ assert }) => {
    const settings = resolvePaymentsSettings(base)
    assert.deepEqual(settings.problems, [])
    assert.equal(settings.installationId, base.installationId)
    assert.equal(settings.sandboxWebhookSecret, base.sandboxWebhookSecret)
  })

  test('production refuses a missing or public sandbox webhook secret', ({ assert }) => {
    for (const sandboxWebhookSecret of [
      undefined,
      '',
      'whsec_dropslot_sandbox',
      'whsec_test_only_never_used_outside_the_suite',
      'whsec_short',
    ]) {
      const { problems } = resolvePaymentsSettings({ ...base, sandboxWebhookSecret })
      assert.lengthOf(problems, 1, String(sandboxWebhookSecret))
      assert.include(problems[0], 'SANDBOX_WEBHOOK_SECRET')
    }
  })

  test('production refuses a missing installation id, and any env a malformed one', ({
    assert,
  }) => {
    const missing = resolvePaymentsSettings({ ...base, installationId: undefined })
    assert.lengthOf(missing.problems, 1)
    assert.include(missing.problems[0], 'INSTALLATION_ID')
    for (const nodeEnv of ['production', 'development']) {
      const odd = resolvePaymentsSettings({ ...base, nodeEnv, installationId: 'has-dash-in-it' })
      assert.include(odd.problems.join(), 'INSTALLATION_ID')
    }
  })

  test('the Stripe gateway needs its own keys outside tests; the sandbox secret is not needed', ({
    assert,
  }) => {
    const stripe = { ...base, gateway: 'stripe', sandboxWebhookSecret: undefined }
    assert.sameMembers(resolvePaymentsSettings(stripe).problems, [
      'PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY',
      'PAYMENT_GATEWAY=stripe needs STRIPE_WEBHOOK_SECRET',
    ])
    assert.deepEqual(
      resolvePaymentsSettings({
        ...stripe,
        stripeSecretKey: 'sk_live_x',
        stripeWebhookSecret: 'whsec_x',
      }).problems,
      []
    )
  })

  test('production names its gateway; the sandbox only when allowed on purpose', ({ assert }) => {
    const unnamed = resolvePaymentsSettings({ ...base, gatewayExplicit: false })
    assert.lengthOf(unnamed.problems, 1)
    assert.include(unnamed.problems[0], 'PAYMENT_GATEWAY is not set')
    const sandbox = resolvePaymentsSettings({ ...base, allowSandboxInProduction: false })
    assert.lengthOf(sandbox.problems, 1)
    assert.include(sandbox.problems[0], 'ALLOW_SANDBOX_IN_PRODUCTION=true')
    const stripe = resolvePaymentsSettings({
      ...base,
      gateway: 'stripe',
      allowSandboxInProduction: false,
      stripeSecretKey: 'sk_live_x',
      stripeWebhookSecret: 'whsec_x',
    })
    assert.deepEqual(stripe.problems, [])
    // Outside production the default gateway needs nothing.
    for (const nodeEnv of ['development', 'test']) {
      const quiet = resolvePaymentsSettings({
        nodeEnv,
        gateway: 'sandbox',
        appKey: base.appKey,
      })
      assert.deepEqual(quiet.problems, [], nodeEnv)
    }
  })

  test('development derives stable values per install from APP_KEY, never shared', ({ assert }) => {
    const dev = { nodeEnv: 'development', gateway: 'sandbox', appKey: 'first-install-app-key' }
    const one = resolvePaymentsSettings(dev)
    const again = resolvePaymentsSettings(dev)
    const other = resolvePaymentsSettings({ ...dev, appKey: 'second-install-app-key' })
    assert.deepEqual(one.problems, [])
    assert.equal(one.installationId, again.installationId)
    assert.equal(one.sandboxWebhookSecret, again.sandboxWebhookSecret)
    assert.notEqual(one.installationId, other.installationId)
    assert.notEqual(one.sandboxWebhookSecret, other.sandboxWebhookSecret)
    assert.match(one.installationId, INSTALLATION_ID_PATTERN)
    assert.notEqual(one.sandboxWebhookSecret, 'whsec_dropslot_sandbox')
  })

  test('the first-run .env gets a random installation id and webhook and checkout secrets', async ({
    assert,
  }) => {
    const root = path.resolve(import.meta.dirname, '../../..')
    const values: Record<string, string>[] = []
    for (let run = 0; run < 2; run++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'dropslot-env-'))
      try {
        await copyFile(path.join(root, '.env.example'), path.join(dir, '.env.example'))
        const url = pathToFileURL(`${dir}/`)
        assert.isTrue(ensureEnvFile(url))
        values.push(readEnvFile(url))
        // An existing .env is never touched.
        await writeFile(path.join(dir, '.env'), 'KEEP=1\n')
        assert.isFalse(ensureEnvFile(url))
        assert.equal(await readFile(path.join(dir, '.env'), 'utf8'), 'KEEP=1\n')
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
    for (const env of values) {
      // Links in e-mails follow PORT unless APP_URL is set on purpose: no fixed port is copied.
      assert.notProperty(env, 'APP_URL')
      assert.match(env.INSTALLATION_ID, INSTALLATION_ID_PATTERN)
      assert.match(env.SANDBOX_WEBHOOK_SECRET, /^whsec_[0-9a-f]{48}$/)
      assert.match(env.DRAW_FINGERPRINT_KEY, /^[0-9a-f]{64}$/)
      const settings = resolvePaymentsSettings({
        nodeEnv: 'production',
        gateway: 'sandbox',
        gatewayExplicit: true,
        allowSandboxInProduction: true,
        appKey: env.APP_KEY,
        installationId: env.INSTALLATION_ID,
        sandboxWebhookSecret: env.SANDBOX_WEBHOOK_SECRET,
      })
      assert.deepEqual(settings.problems, [])
      // The checkout bot's two secrets: 32 random bytes each, different, fit for production.
      assert.match(env.CHECKOUT_TASK_SECRET, /^[A-Za-z0-9_-]{43}$/)
      assert.match(env.CHECKOUT_RESULTS_SECRET, /^[A-Za-z0-9_-]{43}$/)
      const checkout = resolveCheckoutSecrets({
        nodeEnv: 'production',
        taskSecret: env.CHECKOUT_TASK_SECRET,
        resultsSecret: env.CHECKOUT_RESULTS_SECRET,
      })
      assert.deepEqual(checkout.problems, [])
    }
    assert.notEqual(values[0].INSTALLATION_ID, values[1].INSTALLATION_ID)
    assert.notEqual(values[0].SANDBOX_WEBHOOK_SECRET, values[1].SANDBOX_WEBHOOK_SECRET)
    assert.notEqual(values[0].DRAW_FINGERPRINT_KEY, values[1].DRAW_FINGERPRINT_KEY)
    assert.notEqual(values[0].CHECKOUT_TASK_SECRET, values[1].CHECKOUT_TASK_SECRET)
    assert.notEqual(values[0].CHECKOUT_TASK_SECRET, values[0].CHECKOUT_RESULTS_SECRET)
  })
})
