import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { customerWithToken } from '#tests/helpers'
import { tokenLastUse } from '#accounts/services/token_last_use'

async function infoWith(client: ApiClient, token: string) {
  const response = await client.get('/api/user/info').bearerToken(token)
  return response.status()
}

async function lastUsed(userId: number): Promise<number | null> {
  const row = await db.from('auth_access_tokens').where('tokenable_id', userId).first()
  if (!row.last_used_at) return null
  const value = row.last_used_at
  return value instanceof Date ? value.getTime() : new Date(value).getTime()
}

/** Uses are written in batches: write what is noted now, as the timer or a shutdown would. */
const afterFlush = () => tokenLastUse.flush()

test.group('Token last use', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the first use records the time, further uses within a minute write nothing', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    assert.isNull(await lastUsed(user.id))
    const before = Date.now()
    assert.equal(await infoWith(client, token), 200)
    await afterFlush()
    const first = await lastUsed(user.id)
    assert.isNotNull(first)
    assert.isAtLeast(first!, Math.floor(before / 1000) * 1000)

    const marker = new Date(Date.now() - 30_000)
    await db
      .from('auth_access_tokens')
      .where('tokenable_id', user.id)
      .update({ last_used_at: marker })
    const recorded = await lastUsed(user.id)
    assert.equal(await infoWith(client, token), 200)
    assert.equal(await infoWith(client, token), 200)
    await afterFlush()
    assert.equal(await lastUsed(user.id), recorded)
  })

  test('a use more than a minute after the last one records it again', async ({
    client,
    assert,
  }) => {
    const { user, token } = await customerWithToken()
    const old = new Date(Date.now() - 5 * 60_000)
    await db.from('auth_access_tokens').where('tokenable_id', user.id).update({ last_used_at: old })
    const before = await lastUsed(user.id)
    assert.equal(await infoWith(client, token), 200)
    await afterFlush()
    const after = await lastUsed(user.id)
    assert.isAbove(after!, before! + 4 * 60_000)
  })

  test('many customers pressing at once: every token is recorded', async ({ client, assert }) => {
    const customers = await Promise.all(Array.from({ length: 12 }, () => customerWithToken()))
    const statuses = await Promise.all(customers.map(({ token }) => infoWith(client, token)))
    assert.deepEqual(statuses, Array(12).fill(200))
    await afterFlush()
    for (const { user } of customers) assert.isNotNull(await lastUsed(user.id))
  })

  test('a wrong secret is refused and does not touch the token', async ({ client, assert }) => {
    const { user, token } = await customerWithToken()
    const forged = `${token.slice(0, token.indexOf('.') + 1)}${Buffer.from('not-the-secret').toString('base64url')}`
    assert.equal(await infoWith(client, forged), 401)
    await afterFlush()
    assert.isNull(await lastUsed(user.id))
  })
})
