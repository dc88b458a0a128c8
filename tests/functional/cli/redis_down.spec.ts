import { test } from '@japa/runner'
import { runCli } from '#tests/support/cli'
import { unreachableRedisUrl } from '#tests/support/redis'

/*
| An operator whose Redis is down (REDIS_URL set, nothing answering): the figures that live in
| the database still come, and a command that needs Redis says so in one line. Before, every
| command crashed after about twelve seconds of ioredis's own messages with
| MaxRetriesPerRequestError, `release:status` included.
*/
test.group('CLI: with Redis down', () => {
  test('release:status gives the figures and says who runs now is unknown', async ({ assert }) => {
    const redisUrl = await unreachableRedisUrl(':s3cret-pass')
    const result = await runCli(['release:status'], { REDIS_URL: redisUrl })
    assert.equal(result.code, 0, result.stderr)
    assert.include(result.stdout, 'Holds open:')
    assert.include(
      result.stdout,
      'Running now: unknown, the release lock did not answer (Redis, where the lock is kept, is not reachable)'
    )
    for (const noise of ['Unhandled error event', 'MaxRetriesPerRequestError', 's3cret-pass']) {
      assert.notInclude(result.stdout + result.stderr, noise)
    }
  }).timeout(60_000)

  test('a command that needs the release lock says Redis is not reachable, and where', async ({
    assert,
  }) => {
    const redisUrl = await unreachableRedisUrl(':s3cret-pass')
    const port = new URL(redisUrl).port
    const result = await runCli(['release:run'], { REDIS_URL: redisUrl, LOG_LEVEL: 'warn' })
    assert.equal(result.code, 1)
    const lines = result.stderr.trim().split('\n')
    // The outage once as a warning for each of the two uses (locks, live updates), no `FATAL`
    // line for every reconnection attempt, then the command's one line.
    const logged = lines.flatMap((line) => {
      const entry = /^\[[\d:.]+\] (\w+) \([^)]*\): ([^;]*)/.exec(line)
      return entry ? [`${entry[1]} ${entry[2]}`] : []
    })
    assert.sameMembers(logged, [
      'WARN Redis (main) is not reachable',
      `WARN Live updates: Redis at 127.0.0.1:${port} is not reachable (connect ECONNREFUSED 127.0.0.1:${port})`,
    ])
    assert.equal(
      lines.at(-1),
      `error: Redis at 127.0.0.1:${port} is not reachable: start it, or correct REDIS_URL. ` +
        'This command needs what is kept there: the release lock and the orders’ money locks ' +
        '(and the queues, with QUEUE_DRIVER=bullmq).'
    )
    assert.notInclude(result.stdout + result.stderr, 's3cret-pass')
  }).timeout(60_000)
})
