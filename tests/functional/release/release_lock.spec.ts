import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { Redis } from 'ioredis'
import queueConfig from '#config/queue'
import { redisConnectionOptions } from '#config/redis'
import { RELEASE_LOCK, ReleaseLock } from '#release/services/release_lock'
import { redisTestsRun } from '#tests/support/redis'

const runRedis = await redisTestsRun()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const store of ['database', 'redis'] as const) {
  test.group(`The release lock on the ${store} store`, (group) => {
    group.each.setup(() => testUtils.db().withGlobalTransaction())
    const skip = store === 'redis' && !runRedis
    const name = () =>
      `test-lock-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`

    test('one holder at a time, named; renewed and released only by its owner', async ({
      assert,
    }) => {
      const lock = new ReleaseLock(store)
      const key = name()
      assert.isTrue(await lock.acquire(key, 'cli:ops@host-a:1', 60_000))
      assert.isFalse(await lock.acquire(key, 'worker@host-b:2', 60_000))
      const holder = await lock.holder(key)
      assert.equal(holder?.owner, 'cli:ops@host-a:1')
      assert.closeTo(holder!.expiresAt.getTime() - Date.now(), 60_000, 5_000)

      assert.isTrue(await lock.renew(key, 'cli:ops@host-a:1', 120_000))
      assert.isFalse(await lock.renew(key, 'worker@host-b:2', 120_000))
      await lock.release(key, 'worker@host-b:2')
      const stillHeld = await lock.holder(key)
      assert.equal(stillHeld?.owner, 'cli:ops@host-a:1')

      await lock.release(key, 'cli:ops@host-a:1')
      assert.isNull(await lock.holder(key))
      assert.isTrue(await lock.acquire(key, 'worker@host-b:2', 60_000))
      await lock.forceRelease(key)
      assert.isNull(await lock.holder(key))
    }).skip(skip, 'Redis is not running on this machine')

    test('a holder that stops renewing loses the lock when it lapses', async ({ assert }) => {
      const lock = new ReleaseLock(store)
      const key = name()
      assert.isTrue(await lock.acquire(key, 'killed@host-a:1', 150))
      // The store lapses the lock on its own clock (Redis's expiry): wait for the lapse itself.
      for (let tries = 0; tries < 100 && (await lock.holder(key)); tries++) await sleep(20)
      assert.isNull(await lock.holder(key))
      assert.isTrue(await lock.acquire(key, 'next@host-b:2', 60_000))
      assert.isFalse(await lock.renew(key, 'killed@host-a:1', 60_000))
      const taken = await lock.holder(key)
      assert.equal(taken?.owner, 'next@host-b:2')
      await lock.release(key, 'next@host-b:2')
    }).skip(skip, 'Redis is not running on this machine')
  })
}

test.group('Installations sharing one Redis', () => {
  test('each holds its own release lock: another one running its release never skips ours', async ({
    assert,
  }) => {
    // Another installation on the same Redis, connected as this one's config connects.
    const other = new Redis(redisConnectionOptions(queueConfig.redisUrl, `other-${process.pid}`))
    const ours = new ReleaseLock('redis')
    try {
      assert.equal(await other.set(RELEASE_LOCK, 'cli:ops@other-install:1', 'PX', 60_000), 'OK')
      assert.isNull(await ours.holder(RELEASE_LOCK))
      assert.isTrue(await ours.acquire(RELEASE_LOCK, 'cli:ops@this-install:1', 60_000))
      assert.equal(await other.get(RELEASE_LOCK), 'cli:ops@other-install:1')
      await ours.release(RELEASE_LOCK, 'cli:ops@this-install:1')
    } finally {
      await other.del(RELEASE_LOCK)
      await other.quit()
    }
  }).skip(!runRedis, 'Redis is not running on this machine')
})
