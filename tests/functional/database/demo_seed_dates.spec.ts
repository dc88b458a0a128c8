import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import DemoSeeder from '#database/seeders/demo_seeder'
import { clock } from '#core/services/clock'
import { dateFromSql } from '#core/helpers/sql_time'
import { adminWithToken } from '#tests/helpers'

test.group('Demo seed: its e-mails are dated when it ran', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test("the console's oldest e-mail wait is the seed's age, not the replayed draw's", async ({
    client,
    assert,
  }) => {
    // Only the seed's e-mails: other tests' processes commit e-mails of their own (rolled back
    // here with the test's transaction).
    await db.from('email_messages').delete()
    const started = Math.floor(clock.nowMs() / 1000) * 1000
    await new DemoSeeder(db.connection()).run()
    const seconds = Math.ceil((clock.nowMs() - started) / 1000)

    const rows = await db.from('email_messages').select('created_at')
    assert.isAbove(rows.length, 0)
    for (const row of rows) {
      assert.isAtLeast(dateFromSql(row.created_at)!.getTime(), started)
    }

    const { token } = await adminWithToken()
    const queues = await client.get('/api/admin/queues').bearerToken(token)
    queues.assertStatus(200)
    assert.equal(queues.body().backlog.emails.due, rows.length)
    assert.isAtMost(queues.body().backlog.emails.oldestSeconds, seconds + 1)
  }).timeout(120_000)
})
