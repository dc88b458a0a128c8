import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'
import { RUNS_IN_THE_SQLITE_SUITE, SUITE_ON_MARIADB } from '#tests/support/own_sqlite'

const ACE = fileURLToPath(new URL('../../../ace.js', import.meta.url))
const runBullmq = await redisTestsRun()

type Finished = { code: number | null; signal: string | null; stderr: string }

/** Runs `node ace ...`; a command that never exits is killed after two minutes. */
function ace(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [ACE, ...args],
      {
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
        env: { ...process.env, NODE_ENV: 'test', ...env },
        timeout: 120_000,
        killSignal: 'SIGKILL',
      },
      (error, _stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          signal: error?.signal ?? null,
          stderr,
        })
    )
  })
}

test.group('ace commands end on their own', () => {
  test('db:seed with BullMQ and Redis finishes and exits, so npm start goes on to serve', async ({
    assert,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'dropslot-ace-'))
    const env = {
      DB_CONNECTION: 'sqlite',
      SQLITE_PATH: join(dir, 'seed.sqlite3'),
      QUEUE_DRIVER: 'bullmq',
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `ace-exit-${process.pid}`,
    }
    try {
      const migrated = await ace(['migration:run', '--force'], env)
      assert.equal(migrated.code, 0, migrated.stderr)
      // The seed's orders dispatch their holds and receipts: BullMQ opens Redis connections.
      const seeded = await ace(['db:seed'], env)
      assert.isNull(seeded.signal, 'db:seed did not exit by itself and was killed')
      assert.equal(seeded.code, 0, seeded.stderr)
    } finally {
      await rm(dir, { recursive: true, force: true })
      const redis = new Redis(TEST_REDIS_URL)
      const keys = await redis.keys(`${env.QUEUE_PREFIX}:*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
    }
  })
    .skip(
      !runBullmq || SUITE_ON_MARIADB,
      runBullmq ? RUNS_IN_THE_SQLITE_SUITE : 'Redis is not running here (CI runs it)'
    )
    .timeout(300_000)
})
