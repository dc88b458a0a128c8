import { test } from '@japa/runner'
import { spawn, spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { waitFor } from '#tests/support/wait_for'
import { DEMO_ADMIN, DEMO_CUSTOMER } from '#database/seeders/demo_seeder'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const LOADER = '--import=ts-node-maintained/register/esm'

/** The server as `npm start` runs it (`bin/server.js --banner`), on a database of its own. */
test.group('First-run banner of the server', () => {
  test('started with --banner, the server prints the banner once it listens', async ({
    assert,
  }) => {
    const sqlite = `${ROOT}tmp/first-run-banner-${process.pid}.sqlite3`
    const port = Number(process.env.PORT ?? 3334) + 62
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      SQLITE_PATH: sqlite,
      LOG_LEVEL: 'silent',
    }
    const migrated = spawnSync(process.execPath, [LOADER, 'ace.js', 'migration:run', '--force'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    })
    assert.equal(migrated.status, 0, migrated.stderr)
    const server = spawn(process.execPath, [LOADER, 'bin/server.ts', '--banner'], {
      cwd: ROOT,
      env,
    })
    let stdout = ''
    server.stdout.on('data', (chunk) => (stdout += chunk))
    try {
      await waitFor(() => stdout.includes('Admin console'), {
        timeoutMs: 45_000,
        intervalMs: 100,
        what: 'the banner',
      })
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      assert.equal(health.status, 200)
      assert.include(stdout, `Storefront     http://localhost:${port}`)
      assert.include(stdout, `Admin console  http://localhost:${port}/admin`)
      assert.include(stdout, `${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`)
      assert.include(stdout, `${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`)
    } finally {
      server.kill('SIGKILL')
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlite}${suffix}`, { force: true })
    }
  }).timeout(120_000)
})
