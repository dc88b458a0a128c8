import { test } from '@japa/runner'
import redisConfig, { reconnectDelay } from '#config/redis'

test.group('The Redis connection after an outage', () => {
  test('it keeps trying to reconnect, however long Redis was away, never more than 2 s apart', ({
    assert,
  }) => {
    const retryStrategy = redisConfig.connections.main.retryStrategy!
    for (const attempt of [1, 10, 11, 50, 10_000]) {
      const delay = retryStrategy(attempt)
      assert.isNumber(delay, `attempt ${attempt} gave up`)
      assert.isAtMost(delay as number, 2000)
      assert.isAbove(delay as number, 0)
    }
    assert.equal(retryStrategy, reconnectDelay)
  })
})
