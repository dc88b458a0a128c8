import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { cliEntry } from '#tests/support/cli'
import { RUNS_IN_THE_SQLITE_SUITE, SUITE_ON_MARIADB } from '#tests/support/own_sqlite'

// The production build, as production starts it (built by the first test that needs it).
const BUILD = join(dirname(await cliEntry()), '..')

type Boot = { code: number | null; output: string; killed: boolean; listening: boolean }

/**
 * Boots the real HTTP server entrypoint with NODE_ENV=production and the given payment settings.
 * A server that refuses exits by itself; one that does not is stopped as soon as it answers HTTP
 * (`listening`: the refusal cases fail on it), or after the time limit (`killed`), so no server is
 * ever left running. The limit is generous for a busy machine.
 */
function bootProduction(env: Record<string, string | undefined>, slot: number): Promise<Boot> {
  // Slots 0-9 and 11-19: PORT + 60 is the trusted-proxies test's server.
  const port = Number(process.env.PORT ?? 3334) + 50 + slot
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/server.js'], {
      cwd: BUILD,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        // The test's own port: if the server did start, it is ours to stop.
        PORT: String(port),
        APP_KEY: 'production-boot-check-0123456789abcdef0123',
        PROFILE_TRANSPORT_KEY: 'ab'.repeat(32),
        VAULT_KEYS: `p1:${'cd'.repeat(32)}`,
        SQLITE_PATH: '/nonexistent/dropslot-boot-check.sqlite3',
        HOLD_WORKER_ENABLED: 'false',
        LOG_LEVEL: 'silent',
        // Only these variables: a developer's .env (written by `npm start`) must not fill the gaps.
        ENV_PATH: '/nonexistent/dropslot-no-env-files',
        ...env,
      } as NodeJS.ProcessEnv,
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    let killed = false
    let listening = false
    const timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, 150_000)
    const probe = setInterval(() => {
      fetch(`http://127.0.0.1:${port}/health`)
        .then(() => {
          listening = true
          child.kill('SIGKILL')
        })
        .catch(() => {})
    }, 250)
    child.on('exit', (code) => {
      clearTimeout(timer)
      clearInterval(probe)
      resolve({ code, output: output.replace(/\s+/g, ' '), killed, listening })
    })
  })
}

/** Boots each case, two at a time (two cores). */
async function bootEach(
  cases: readonly (readonly [Record<string, string | undefined>, string])[],
  firstSlot: number
) {
  const boots: Boot[] = new Array(cases.length)
  let next = 0
  const lane = async () => {
    while (next < cases.length) {
      const index = next++
      boots[index] = await bootProduction(cases[index][0], firstSlot + index)
    }
  }
  await Promise.all([lane(), lane()])
  return boots
}

const good = {
  PAYMENT_GATEWAY: 'sandbox',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  INSTALLATION_ID: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  SANDBOX_WEBHOOK_SECRET: `whsec_${'9f'.repeat(24)}`,
  DRAW_FINGERPRINT_KEY: 'e7'.repeat(32),
  CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
  CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
  // These boots send no mail: a local port nothing listens on stands in for the mail server.
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '9',
}

test.group('Production start-up refuses payment settings that are not its own', () => {
  test('a missing or default sandbox webhook secret, a missing installation id', async ({
    assert,
  }) => {
    const cases = [
      [{ ...good, SANDBOX_WEBHOOK_SECRET: undefined }, 'SANDBOX_WEBHOOK_SECRET is missing'],
      [
        { ...good, SANDBOX_WEBHOOK_SECRET: 'whsec_dropslot_sandbox' },
        'SANDBOX_WEBHOOK_SECRET is a public',
      ],
      [{ ...good, INSTALLATION_ID: undefined }, 'INSTALLATION_ID is missing'],
      [
        { ...good, PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_boot_check' },
        'PAYMENT_GATEWAY=stripe needs STRIPE_WEBHOOK_SECRET',
      ],
    ] as const
    const boots = await bootEach(cases, 0)
    boots.forEach((boot, index) => {
      assert.isFalse(boot.listening || boot.killed, `case ${index} kept running`)
      assert.notEqual(boot.code, 0)
      assert.include(boot.output, 'Payments configuration refused')
      assert.include(boot.output, cases[index][1])
      // The refused secret is never echoed.
      assert.notInclude(boot.output, 'whsec_dropslot_sandbox')
      assert.notInclude(boot.output, 'sk_live_boot_check')
    })
  })
    .timeout(300_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)

  test('no gateway named, or the sandbox without ALLOW_SANDBOX_IN_PRODUCTION', async ({
    assert,
  }) => {
    const cases = [
      [{ ...good, PAYMENT_GATEWAY: undefined }, 'PAYMENT_GATEWAY is not set'],
      [{ ...good, ALLOW_SANDBOX_IN_PRODUCTION: undefined }, 'ALLOW_SANDBOX_IN_PRODUCTION=true'],
      [{ ...good, ALLOW_SANDBOX_IN_PRODUCTION: 'false' }, 'ALLOW_SANDBOX_IN_PRODUCTION=true'],
    ] as const
    const boots = await bootEach(cases, 4)
    boots.forEach((boot, index) => {
      assert.isFalse(boot.listening || boot.killed, `case ${index} kept running`)
      assert.notEqual(boot.code, 0)
      assert.include(boot.output, 'Payments configuration refused')
      assert.include(boot.output, cases[index][1])
    })
  })
    .timeout(300_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)

  test('checkout bot secrets that are missing, weak, published, equal or the old single one', async ({
    assert,
  }) => {
    const task = good.CHECKOUT_TASK_SECRET
    const cases = [
      [{ ...good, CHECKOUT_TASK_SECRET: undefined }, 'CHECKOUT_TASK_SECRET is missing'],
      [{ ...good, CHECKOUT_RESULTS_SECRET: 'short-secret' }, 'CHECKOUT_RESULTS_SECRET is shorter'],
      [{ ...good, CHECKOUT_TASK_SECRET: 'ab'.repeat(40) }, 'CHECKOUT_TASK_SECRET is not random'],
      [
        {
          ...good,
          CHECKOUT_TASK_SECRET: 'test_only_task_secret_never_used_outside_the_suite_01',
        },
        'CHECKOUT_TASK_SECRET is a published value',
      ],
      [{ ...good, CHECKOUT_RESULTS_SECRET: task }, 'must differ'],
      [
        {
          ...good,
          CHECKOUT_TASK_SECRET: undefined,
          CHECKOUT_RESULTS_SECRET: undefined,
          CHECKOUT_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
        },
        'CHECKOUT_WEBHOOK_SECRET is no longer used in production',
      ],
    ] as const
    const boots = await bootEach(cases, 11)
    boots.forEach((boot, index) => {
      assert.isFalse(boot.listening || boot.killed, `case ${index} kept running`)
      assert.notEqual(boot.code, 0)
      assert.include(boot.output, 'Checkout bot configuration refused')
      assert.include(boot.output, cases[index][1])
      // The refused secrets are never echoed.
      assert.notInclude(boot.output, task)
      assert.notInclude(boot.output, 'short-secret')
    })
  })
    .timeout(300_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)

  test('with its own settings it starts and answers', async ({ assert }) => {
    const boot = await bootProduction(good, 17)
    assert.isTrue(boot.listening, boot.output)
    assert.notInclude(boot.output, 'configuration refused')
  })
    .timeout(300_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})

test.group('Production start-up refuses e-mail without SMTP', () => {
  test('an unset SMTP_HOST (the console mailbox is for development only)', async ({ assert }) => {
    const boot = await bootProduction({ ...good, SMTP_HOST: undefined }, 7)
    assert.isFalse(boot.listening || boot.killed, 'the server kept running')
    assert.notEqual(boot.code, 0)
    assert.include(boot.output, 'Mail configuration refused')
    assert.include(boot.output, 'SMTP_HOST is not set: production sends its e-mail over SMTP')
  })
    .timeout(180_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})

test.group('Production start-up refuses draws without their own fingerprint key', () => {
  test('a missing DRAW_FINGERPRINT_KEY (never derived from APP_KEY)', async ({ assert }) => {
    const boot = await bootProduction({ ...good, DRAW_FINGERPRINT_KEY: undefined }, 9)
    assert.isFalse(boot.listening || boot.killed, 'the server kept running')
    assert.notEqual(boot.code, 0)
    assert.include(boot.output, 'DRAW_FINGERPRINT_KEY is missing')
  })
    .timeout(180_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})
