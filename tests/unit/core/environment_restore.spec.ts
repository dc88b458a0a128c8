import { test } from '@japa/runner'
import env from '#start/env'

const LEFT_BEHIND = 'DROPSLOT_TEST_LEFT_BEHIND'
const GROUP_VALUE = 'DROPSLOT_TEST_GROUP_VALUE'

/*
| The runner puts the environment back after every test (tests/bootstrap.ts), whether the test
| passed or failed and whether it changed process.env or the env service. Each test first checks
| that it finds the environment as the group set it, then changes it and does not restore it:
| whichever runs later proves that an earlier one left nothing, in any test order.
*/
test.group('Test runner: the environment after each test', (group) => {
  group.setup(() => {
    process.env[GROUP_VALUE] = 'set for the group'
    return () => {
      // After the last test, whichever it was.
      const left = process.env[LEFT_BEHIND] ?? env.get(LEFT_BEHIND as any)
      const changed = env.get(GROUP_VALUE as any)
      delete process.env[GROUP_VALUE]
      if (left !== undefined) throw new Error(`${LEFT_BEHIND} outlived its test: ${left}`)
      if (changed !== 'set for the group') throw new Error(`${GROUP_VALUE} outlived its test`)
    }
  })

  const assertAsTheGroupSetIt = (assert: any) => {
    assert.isUndefined(process.env[LEFT_BEHIND])
    assert.isUndefined(env.get(LEFT_BEHIND as any))
    assert.equal(process.env[GROUP_VALUE], 'set for the group')
    assert.equal(env.get(GROUP_VALUE as any), 'set for the group')
  }

  test('a test that sets a variable and changes another in process.env', ({ assert }) => {
    assertAsTheGroupSetIt(assert)
    process.env[LEFT_BEHIND] = 'left by a passing test'
    process.env[GROUP_VALUE] = 'changed by a passing test'
  })

  test('a test that sets them through the env service', ({ assert }) => {
    assertAsTheGroupSetIt(assert)
    env.set(LEFT_BEHIND as any, 'left through the env service')
    env.set(GROUP_VALUE as any, 'changed through the env service')
  })

  test('a test that fails after setting them, with no restore of its own', ({ assert }) => {
    assertAsTheGroupSetIt(assert)
    env.set(LEFT_BEHIND as any, 'left by a failing test')
    process.env[GROUP_VALUE] = 'changed by a failing test'
    throw new Error('failing after changing the environment')
  }).fails('it fails on purpose, leaving the environment changed')

  test('a later test finds the environment as the group set it', ({ assert }) => {
    assertAsTheGroupSetIt(assert)
  })
})
