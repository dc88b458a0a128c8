import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import AuditLog from '#core/models/audit_log'
import { BullmqDriver } from '#core/jobs/bullmq_driver'
import { defineJob, jobRegistry } from '#core/jobs/job'
import { jobs } from '#core/jobs/jobs'
import { adminWithToken, slotBoughtOverHttp } from '#tests/helpers'
import { redisTestsRun, TEST_REDIS_URL } from '#tests/support/redis'

const runBullmq = await redisTestsRun()

test.group('Admin: background job queues', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the console sees the work due in the tables on the embedded driver', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    await slotBoughtOverHttp(client)

    const response = await client.get('/api/admin/queues').bearerToken(token)
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.driver, 'database')
    assert.isAtLeast(body.backlog.holds.due, 1)
    assert.isNumber(body.backlog.holds.oldestSeconds)
    assert.isAtLeast(body.backlog.emails.due, 1)
    assert.deepEqual(body.failed, [])

    const unknownQueue = await client
      .post('/api/admin/queues/nope/failed/1/retry')
      .bearerToken(token)
    unknownQueue.assertStatus(404)
    unknownQueue.assertBodyContains({ code: 'queue_not_found' })
  })

  test('a failed BullMQ job is listed, retried and discarded from the console, audited', async ({
    client,
    assert,
  }) => {
    const { user, token } = await adminWithToken()
    const driver = new BullmqDriver(TEST_REDIS_URL, `dropslot-test-admin-${process.pid}`)
    const previous = jobs.use(driver)
    let tries = 0
    const failing = defineJob<{ sku: string }>({
      name: 'test.console-fails',
      queue: 'email',
      attempts: 1,
      async handle() {
        tries += 1
        throw new Error('SMTP refused the message')
      },
    })
    jobRegistry.register(failing)
    try {
      await jobs.work({ queues: ['email'], schedules: false })
      await jobs.dispatch(failing, { sku: 'A1' })
      let failed: any[] = []
      for (let wait = 0; wait < 100 && failed.length === 0; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        const overview = await client.get('/api/admin/queues').bearerToken(token)
        failed = overview.body().failed
      }
      assert.lengthOf(failed, 1)
      assert.include(failed[0], { queue: 'email', name: 'test.console-fails', attempts: 1 })
      assert.include(failed[0].error, 'SMTP refused the message')

      const retried = await client
        .post(`/api/admin/queues/email/failed/${failed[0].id}/retry`)
        .bearerToken(token)
      retried.assertStatus(200)
      for (let wait = 0; wait < 100 && tries < 2; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(tries, 2)

      // Failed again; now thrown away.
      for (let wait = 0; wait < 100; wait++) {
        const again = await jobs.failed('email')
        if (again.length === 1) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const discarded = await client
        .post(`/api/admin/queues/email/failed/${failed[0].id}/discard`)
        .bearerToken(token)
      discarded.assertStatus(200)
      assert.lengthOf(await jobs.failed('email'), 0)
      const gone = await client
        .post(`/api/admin/queues/email/failed/${failed[0].id}/discard`)
        .bearerToken(token)
      gone.assertStatus(404)
      gone.assertBodyContains({ code: 'job_not_found' })

      const audit = await AuditLog.query()
        .where('actor_user_id', user.id)
        .whereIn('action', ['queue.retry', 'queue.discard'])
        .orderBy('id')
      assert.deepEqual(
        audit.map((entry) => [entry.action, entry.subjectId]),
        [
          ['queue.retry', `email/${failed[0].id}`],
          ['queue.discard', `email/${failed[0].id}`],
        ]
      )
    } finally {
      await jobs.stop()
      await driver.obliterate()
      await jobs.close()
      jobs.use(previous)
    }
  })
    .skip(!runBullmq, 'Redis is not running on this machine')
    .timeout(30_000)
})
