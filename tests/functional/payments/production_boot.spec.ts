import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

type Boot = { code: number | null; output: string; killed: boolean }

/**
 * Boots the real HTTP server entrypoint with NODE_ENV=production and the given payment settings.
 * A server that refuses exits at once; one that does not is stopped after the time limit (and
 * the test fails on it), so no server is ever left running.
 */
function bootProduction(env: Record<string, string | undefined>, slot: number): Promise<Boot> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import=ts-node-maintained/register/esm', 'bin/server.ts'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          // The test's own port: if the server did start, it is ours to stop.
          PORT: String(Number(process.env.PORT ?? 3334) + 50 + slot),
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
      }
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, 30_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output: output.replace(/\s+/g, ' '), killed })
    })
  })
}

const good = {
  INSTALLATION_ID: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  SANDBOX_WEBHOOK_SECRET: `whsec_${'9f'.repeat(24)}`,
  DRAW_FINGERPRINT_KEY: 'e7'.repeat(32),
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
    const boots = await Promise.all(cases.map(([env], slot) => bootProduction(env, slot)))
    boots.forEach((boot, index) => {
      assert.isFalse(boot.killed, `case ${index} kept running`)
      assert.notEqual(boot.code, 0)
      assert.include(boot.output, 'Payments configuration refused')
      assert.include(boot.output, cases[index][1])
      // The refused secret is never echoed.
      assert.notInclude(boot.output, 'whsec_dropslot_sandbox')
      assert.notInclude(boot.output, 'sk_live_boot_check')
    })
  }).timeout(90_000)
})

test.group('Production start-up refuses draws without their own fingerprint key', () => {
  test('a missing DRAW_FINGERPRINT_KEY (never derived from APP_KEY)', async ({ assert }) => {
    const boot = await bootProduction({ ...good, DRAW_FINGERPRINT_KEY: undefined }, 9)
    assert.isFalse(boot.killed, 'the server kept running')
    assert.notEqual(boot.code, 0)
    assert.include(boot.output, 'DRAW_FINGERPRINT_KEY is missing')
  }).timeout(60_000)
})
