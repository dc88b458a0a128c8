import type { Group, Suite, Test } from '@japa/runner/core'

/**
 * Random test order, reproducible from a seed: `TEST_SEED=random npm test` picks a seed and
 * prints it, `TEST_SEED=1234 npm test` runs that order again. Groups and loose tests are
 * shuffled within their suite, tests within their group, so a test that passes only after
 * another (a row it left, a counter it spent) fails somewhere.
 */
export function testOrderSeed(value = process.env.TEST_SEED): number | null {
  if (!value) return null
  if (value === 'random') return Math.floor(Math.random() * 2 ** 31)
  const seed = Number(value)
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new Error(`TEST_SEED must be "random" or a whole number, not ${value}`)
  }
  return seed
}

/** mulberry32: a small seeded generator, the same sequence for the same seed everywhere. */
function generator(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

export function shuffle<T>(items: T[], random: () => number) {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[items[index], items[other]] = [items[other], items[index]]
  }
  return items
}

/**
 * Shuffles a suite once its files are loaded: its setup hook runs before the first test, and a
 * group's before its first test, so the arrays are reordered before they are walked.
 */
export function shuffleSuite(suite: Suite, seed: number) {
  const random = generator(seed ^ hash(suite.name))
  suite.setup(() => {
    shuffle(suite.stack as (Group | Test)[], random)
  })
  suite.onGroup((group) => {
    group.setup(() => {
      shuffle(group.tests, random)
    })
  })
}

function hash(text: string) {
  let value = 0
  for (const char of text) value = (Math.imul(value, 31) + char.charCodeAt(0)) >>> 0
  return value
}
