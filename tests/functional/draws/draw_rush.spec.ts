import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import db from '@adonisjs/lucid/services/db'
import type User from '#accounts/models/user'
import { customerWithCard, profileFor } from '#tests/helpers'
import { DRAW_CARDS, drawProduct, drawProfileData, removeDraw } from '#tests/support/draws'
import { sandboxSnapshot } from '#tests/support/release'

/*
| Real concurrency, outside the global transaction (it would serialise the requests): a rush of
| entries never lets one person in twice, whichever rule they try to get around. On the suite's
| database (SQLite by default, MariaDB with DB_CONNECTION=mysql); rows are deleted afterwards.
*/

test.group('Draw entries under concurrency', (group) => {
  group.each.setup(() => limiter.clear())

  test('8 accounts with one card, 8 with one address, one account with 8 profiles: one entry each', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const product = await drawProduct({ totalStock: 5 })
    const users: User[] = []
    const attempts: { token: string; profileId: string; rule: string }[] = []
    try {
      for (let index = 0; index < 8; index++) {
        const customer = await customerWithCard()
        users.push(customer.user)
        const profile = await profileFor(
          customer.user,
          drawProfileData(index, DRAW_CARDS[0], `${index + 1} Card Street`)
        )
        attempts.push({ token: customer.token, profileId: profile.publicId, rule: 'card' })
      }
      for (let index = 0; index < 8; index++) {
        const customer = await customerWithCard()
        users.push(customer.user)
        const card = DRAW_CARDS[1 + (index % 3)]
        // One address written eight ways: case, punctuation and spacing do not make it new.
        const street = index % 2 ? '9 ADDRESS  street.' : '9 Address Street'
        const profile = await profileFor(customer.user, drawProfileData(index, card, street))
        attempts.push({ token: customer.token, profileId: profile.publicId, rule: 'address' })
      }
      const one = await customerWithCard()
      users.push(one.user)
      for (let index = 0; index < 8; index++) {
        const profile = await profileFor(
          one.user,
          drawProfileData(index, DRAW_CARDS[index % DRAW_CARDS.length], `${index + 1} Account Road`)
        )
        attempts.push({ token: one.token, profileId: profile.publicId, rule: 'account' })
      }

      const responses = await Promise.all(
        attempts.map((attempt) =>
          client.post('/api/checkout/withprofile').bearerToken(attempt.token).json({
            productId: product.id,
            style: 'Black',
            size: '9',
            profileId: attempt.profileId,
          })
        )
      )
      const statuses = responses.map((response) => response.status())
      assert.isTrue(
        statuses.every((status) => status === 201 || status === 409),
        `${statuses}`
      )
      // Which three got in depends on the race; that only three did, one per group, does not.
      assert.equal(statuses.filter((status) => status === 201).length, 3)
      for (const rule of ['card', 'address', 'account']) {
        const created = attempts.filter(
          (attempt, index) => attempt.rule === rule && statuses[index] === 201
        )
        assert.lengthOf(created, 1, `one entry through the ${rule} rule`)
      }
      const entries = await db.from('draw_entries').where('product_id', product.id)
      assert.lengthOf(entries, 3)
      const orders = await db.from('orders').where('product_id', product.id)
      assert.lengthOf(orders, 3)
    } finally {
      await removeDraw(product, users)
      await restoreSandbox()
    }
  }).timeout(120_000)
})
