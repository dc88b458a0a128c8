import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { sqlTime } from '#core/helpers/sql_time'

test.group('sqlTime', () => {
  test('a Date and a DateTime of the same instant are written alike, in UTC', ({ assert }) => {
    const instant = new Date(Date.UTC(2026, 10, 22, 6, 5, 9, 750))
    assert.equal(sqlTime(instant), '2026-11-22 06:05:09')
    assert.equal(sqlTime(DateTime.fromJSDate(instant)), '2026-11-22 06:05:09')
  })

  test('now by default, to the second', ({ assert }) => {
    const before = DateTime.now().startOf('second').toFormat('yyyy-MM-dd HH:mm:ss')
    const written = sqlTime()
    const after = DateTime.now().toFormat('yyyy-MM-dd HH:mm:ss')
    assert.isTrue(written >= before && written <= after, `${written} not in [${before}, ${after}]`)
  })
})
