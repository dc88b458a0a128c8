import { createHash, createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import { drawWinners, rankEntries } from '#shared/draw'

const hmac = (key: string, message: string) =>
  createHmac('sha256', key).update(message).digest('hex')
const entries = (count: number) => Array.from({ length: count }, (_, index) => `entry-${index}`)
/** Seeds derived from a counter: the same every run, so these tests cannot flake. */
const seedOf = (index: number) => createHash('sha256').update(`seed-${index}`).digest('hex')

test.group('Draw winners', () => {
  test('exactly S winners, or every entry when there are fewer', async ({ assert }) => {
    assert.lengthOf(await drawWinners(seedOf(1), entries(10), 3, hmac), 3)
    assert.sameMembers(await drawWinners(seedOf(1), entries(2), 3, hmac), entries(2))
    assert.lengthOf(await drawWinners(seedOf(1), [], 3, hmac), 0)
  })

  test('the same seed gives the same winners, whatever the order of the entries', async ({
    assert,
  }) => {
    const first = await drawWinners(seedOf(7), entries(50), 5, hmac)
    const shuffled = [...entries(50)].reverse()
    assert.deepEqual(await drawWinners(seedOf(7), shuffled, 5, hmac), first)
    assert.notDeepEqual(await drawWinners(seedOf(8), entries(50), 5, hmac), first)
  })

  test('winners are the entries with the lowest HMAC-SHA256(seed, entry id)', async ({
    assert,
  }) => {
    const seed = seedOf(3)
    const byHand = entries(20)
      .map((entryId) => ({ entryId, score: hmac(seed, entryId) }))
      .sort((a, b) => (a.score < b.score ? -1 : 1))
      .slice(0, 4)
      .map((entry) => entry.entryId)
    assert.deepEqual(await drawWinners(seed, entries(20), 4, hmac), byHand)
    const ranked = await rankEntries(seed, entries(20), hmac)
    assert.deepEqual(
      ranked.map((entry) => entry.rank),
      Array.from({ length: 20 }, (_, index) => index + 1)
    )
  })

  test('fair: over 4,000 draws every entry wins at S/N within five standard deviations', async ({
    assert,
  }) => {
    const pool = entries(10)
    const slots = 3
    const draws = 4000
    const wins = new Map(pool.map((entryId) => [entryId, 0]))
    for (let index = 0; index < draws; index++) {
      for (const winner of await drawWinners(seedOf(index), pool, slots, hmac)) {
        wins.set(winner, wins.get(winner)! + 1)
      }
    }
    const expected = slots / pool.length
    const tolerance = 5 * Math.sqrt((expected * (1 - expected)) / draws)
    for (const [entryId, count] of wins) {
      const rate = count / draws
      assert.isBelow(Math.abs(rate - expected), tolerance, `${entryId} won ${rate} of draws`)
    }
  })
})
