import { test } from '@japa/runner'
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { waitFor } from '#tests/support/wait_for'
import { RUNS_IN_THE_SQLITE_SUITE, SUITE_ON_MARIADB } from '#tests/support/own_sqlite'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const LOADER = '--import=ts-node-maintained/register/esm'

/**
 * The production server as deployed with no TRUSTED_PROXIES: a client rotating X-Forwarded-For
 * must still meet the per-address limits (before, production trusted every forwarded address).
 */
test.group('Trusted proxies in production', () => {
  test('rotating X-Forwarded-For does not escape the password-reset limit', async ({ assert }) => {
    const sqlite = `${ROOT}tmp/trusted-proxies-check-${process.pid}.sqlite3`
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlite}${suffix}`, { force: true })
    const port = Number(process.env.PORT ?? 3334) + 60
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_KEY: 'trusted-proxies-check-0123456789abcdef0123',
      PROFILE_TRANSPORT_KEY: 'ab'.repeat(32),
      VAULT_KEYS: `p1:${'cd'.repeat(32)}`,
      INSTALLATION_ID: 'trustedproxiescheck01',
      SANDBOX_WEBHOOK_SECRET: `whsec_${'7e'.repeat(24)}`,
      PAYMENT_GATEWAY: 'sandbox',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
      CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
      DRAW_FINGERPRINT_KEY: 'f1'.repeat(32),
      // No account, no reset e-mail: a local port nothing listens on stands in for the mail server.
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '9',
      SQLITE_PATH: sqlite,
      HOLD_WORKER_ENABLED: 'false',
      LOG_LEVEL: 'silent',
    } as NodeJS.ProcessEnv
    const migrated = spawnSync(process.execPath, [LOADER, 'ace.js', 'migration:run', '--force'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    })
    assert.equal(migrated.status, 0, migrated.stderr)

    const server = spawn(process.execPath, [LOADER, 'bin/server.ts'], { cwd: ROOT, env })
    try {
      const base = `http://127.0.0.1:${port}`
      await waitFor(() => fetch(`${base}/health`).catch(() => null), {
        timeoutMs: 30_000,
        intervalMs: 100,
        what: 'the production server to answer',
      })
      const statuses: number[] = []
      for (let attempt = 0; attempt < 8; attempt++) {
        const response = await fetch(`${base}/api/forgotpw`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `198.51.100.${attempt + 1}`,
          },
          body: JSON.stringify({ email: `someone-${attempt}@example.test` }),
        })
        statuses.push(response.status)
      }
      // The limit is 5 an hour per address: the forwarded addresses are not believed.
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429])
    } finally {
      server.kill('SIGKILL')
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlite}${suffix}`, { force: true })
    }
  })
    .timeout(90_000)
    .skip(SUITE_ON_MARIADB, RUNS_IN_THE_SQLITE_SUITE)
})
