import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { withDriverSession, type DriverSession } from '#core/services/driver_session'
import { sqlTime } from '#core/helpers/sql_time'

const RECORD = `INSERT INTO email_messages (to_address, template, subject, text_body, status,
  attempts, dedupe_key, created_at) VALUES ('driver@example.test', 'probe', 'probe', 'probe',
  'recorded', 0, ?, ?)`

function record(session: DriverSession, key: string) {
  return session.run(RECORD, [key, sqlTime()])
}

async function keysLike(prefix: string) {
  const rows = await db
    .from('email_messages')
    .where('dedupe_key', 'like', `${prefix}%`)
    .orderBy('dedupe_key')
    .select('dedupe_key')
  return rows.map((row) => row.dedupe_key)
}

test.group('Driver session, on its own connection', (group) => {
  group.each.teardown(async () => {
    await db.from('email_messages').where('dedupe_key', 'like', 'ds-%').delete()
  })

  test('commits the work of a transaction and reads it back', async ({ assert }) => {
    const read = await withDriverSession(async (session) => {
      const { changes, insertId } = await session.transaction(() => record(session, 'ds-commit'))
      assert.equal(changes, 1)
      return session.first<{ dedupe_key: string }>(
        'SELECT dedupe_key FROM email_messages WHERE id = ?',
        [insertId]
      )
    })
    assert.deepEqual(read, { dedupe_key: 'ds-commit' })
    assert.isNull(
      await withDriverSession((session) =>
        session.first('SELECT id FROM email_messages WHERE dedupe_key = ?', ['ds-none'])
      )
    )
  })

  test('a failure inside the transaction writes nothing, and the pool goes on', async ({
    assert,
  }) => {
    await assert.rejects(
      () =>
        withDriverSession((session) =>
          session.transaction(async () => {
            await record(session, 'ds-first')
            await record(session, 'ds-first') // the unique dedupe key refuses it
          })
        ),
      /UNIQUE|Duplicate/i
    )
    assert.deepEqual(await keysLike('ds-'), [])

    // Every pooled connection is still usable and outside any transaction.
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        withDriverSession((session) =>
          session.transaction(() => record(session, `ds-after-${String(index).padStart(2, '0')}`))
        )
      )
    )
    assert.lengthOf(await keysLike('ds-after-'), 12)
  })
})

test.group('Driver session, inside the tests global transaction', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a failed transaction undoes only its own writes', async ({ assert }) => {
    await withDriverSession((session) => session.transaction(() => record(session, 'ds-kept')))
    await assert.rejects(() =>
      withDriverSession((session) =>
        session.transaction(async () => {
          await record(session, 'ds-undone')
          throw new Error('checkout failed')
        })
      )
    )
    assert.deepEqual(await keysLike('ds-'), ['ds-kept'])
  })

  test('sessions started at once run one after another on the one connection', async ({
    assert,
  }) => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((name, index) =>
        withDriverSession((session) =>
          session.transaction(async () => {
            await record(session, `ds-${name}`)
            // Odd ones fail after writing: a savepoint shared with another session would take
            // that session's row down with it.
            if (index % 2 === 1) throw new Error(`session ${name} failed`)
          })
        )
      )
    )
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected']
    )
    assert.deepEqual(await keysLike('ds-'), ['ds-a', 'ds-c'])
  })
})
