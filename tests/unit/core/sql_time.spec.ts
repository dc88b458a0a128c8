import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'

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

test.group('clock', (group) => {
  group.each.teardown(() => clock.reset())

  test('a test moves time for sqlTime and luxon alike, and reset brings it back', ({ assert }) => {
    const start = clock.nowMs()
    clock.travel(7 * 24 * 3600 * 1000)
    const week = DateTime.fromMillis(start).plus({ days: 7 })
    assert.isAtLeast(DateTime.now().toMillis(), week.toMillis())
    const written = sqlTime()
    assert.isTrue(written >= week.toUTC().toFormat('yyyy-MM-dd HH:mm:ss'), written)
    clock.reset()
    assert.isBelow(DateTime.now().toMillis(), week.toMillis())
  })

  test('frozen time stands still until moved', ({ assert }) => {
    clock.freeze(new Date(Date.UTC(2026, 10, 25, 6, 0, 0)))
    assert.equal(sqlTime(), '2026-11-25 06:00:00')
    clock.travel(90_000)
    assert.equal(sqlTime(), '2026-11-25 06:01:30')
    assert.equal(DateTime.now().toUTC().toISO(), '2026-11-25T06:01:30.000Z')
  })
})
