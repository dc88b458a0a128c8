import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { resolveCheckoutSecrets, secretWeakness } from '#release/settings'

/*
| The checkout bot's secrets: tasks out and results in, each its own, at least 32 random bytes.
| Production refuses anything else; development and test may still run on the deprecated single
| CHECKOUT_WEBHOOK_SECRET.
*/
const random = () => randomBytes(32).toString('base64url')

test.group('Checkout bot secrets', () => {
  test('production takes two different random secrets of 32 bytes or more', ({ assert }) => {
    const taskSecret = random()
    const resultsSecret = randomBytes(32).toString('hex')
    const settings = resolveCheckoutSecrets({ nodeEnv: 'production', taskSecret, resultsSecret })
    assert.deepEqual(settings.problems, [])
    assert.equal(settings.taskSecret, taskSecret)
    assert.equal(settings.resultsSecret, resultsSecret)
    assert.isFalse(settings.usesDeprecatedSecret)
  })

  test('production refuses missing, short, patterned, published, equal and single secrets', ({
    assert,
  }) => {
    const good = { nodeEnv: 'production', taskSecret: random(), resultsSecret: random() }
    const cases: [Partial<typeof good> & { legacySecret?: string }, string][] = [
      [{ taskSecret: undefined }, 'CHECKOUT_TASK_SECRET is missing'],
      [{ resultsSecret: '' }, 'CHECKOUT_RESULTS_SECRET is missing'],
      // 31 bytes: one short.
      [{ taskSecret: randomBytes(31).toString('hex') }, 'CHECKOUT_TASK_SECRET is shorter'],
      [{ taskSecret: randomBytes(31).toString('base64url') }, 'CHECKOUT_TASK_SECRET is shorter'],
      [{ taskSecret: 'correct horse battery staple, a long phrase' }, 'is shorter'],
      [{ resultsSecret: 'a'.repeat(80) }, 'CHECKOUT_RESULTS_SECRET is not random'],
      [
        { taskSecret: 'test_only_task_secret_never_used_outside_the_suite_01' },
        'CHECKOUT_TASK_SECRET is a published value',
      ],
      [
        { resultsSecret: 'test_only_results_secret_never_used_outside_the_suite_01' },
        'CHECKOUT_RESULTS_SECRET is a published value',
      ],
      [{ resultsSecret: good.taskSecret }, 'must differ'],
      [
        { taskSecret: undefined, resultsSecret: undefined, legacySecret: random() },
        'CHECKOUT_WEBHOOK_SECRET is no longer used in production',
      ],
    ]
    for (const [change, problem] of cases) {
      const { problems } = resolveCheckoutSecrets({ ...good, ...change })
      assert.isTrue(
        problems.some((text) => text.includes(problem)),
        `${problem}: ${problems.join(' | ')}`
      )
      // A refusal never repeats the secret it refused.
      for (const value of Object.values(change)) {
        if (value) assert.notInclude(problems.join(' '), value)
      }
    }
  })

  test('development and test run on the deprecated single secret, or with the bot off', ({
    assert,
  }) => {
    const legacy = 'an-old-shared-secret'
    const fallback = resolveCheckoutSecrets({ nodeEnv: 'development', legacySecret: legacy })
    assert.deepEqual(fallback.problems, [])
    assert.equal(fallback.taskSecret, legacy)
    assert.equal(fallback.resultsSecret, legacy)
    assert.isTrue(fallback.usesDeprecatedSecret)

    const separate = resolveCheckoutSecrets({
      nodeEnv: 'test',
      taskSecret: 'task',
      resultsSecret: 'results',
      legacySecret: legacy,
    })
    assert.deepEqual([separate.taskSecret, separate.resultsSecret], ['task', 'results'])
    assert.isFalse(separate.usesDeprecatedSecret)

    const off = resolveCheckoutSecrets({ nodeEnv: 'development' })
    assert.deepEqual([off.taskSecret, off.resultsSecret, off.problems], ['', '', []])
  })

  test('strength counts the bytes a secret carries, not its characters', ({ assert }) => {
    assert.isNull(secretWeakness(randomBytes(32).toString('hex')))
    assert.isNull(secretWeakness(randomBytes(32).toString('base64')))
    assert.isNull(secretWeakness(randomBytes(32).toString('base64url')))
    assert.isNotNull(secretWeakness(randomBytes(31).toString('hex')))
    assert.isNotNull(secretWeakness('é'.repeat(64)))
  })
})
