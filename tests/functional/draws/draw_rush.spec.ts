import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type User from '#accounts/models/user'
import { clock } from '#core/services/clock'
import { drawRecords } from '#draws/services/draw_records'
import { drawRunner } from '#draws/services/draw_runner'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { merkleRoot, verifyDraw } from '#shared/draw'
import { customerWithCard, placeHolds, profileFor } from '#tests/helpers'
import {
  DRAW_CARDS,
  distinctCard,
  drawProduct,
  drawProfileData,
  recordedDraw,
  removeDraw,
} from '#tests/support/draws'
import { sandboxSnapshot } from '#tests/support/release'

/*
| Real concurrency, outside the global transaction (it would serialise the requests): a rush of
| entries never lets one person in twice, whichever rule they try to get around, and a rush
| across the close never leaves an entry out of the frozen list. On the suite's database (SQLite
| by default, MariaDB with DB_CONNECTION=mysql); rows are deleted afterwards.
*/

test.group('Draw entries under concurrency', () => {
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
        // One card on file, saved by eight accounts: the gateway's fingerprint is the same.
        const customer = await customerWithCard(distinctCard(900))
        users.push(customer.user)
        const profile = await profileFor(
          customer.user,
          drawProfileData(index, DRAW_CARDS[index % 4], `${index + 1} Card Street`)
        )
        attempts.push({ token: customer.token, profileId: profile.publicId, rule: 'card' })
      }
      for (let index = 0; index < 8; index++) {
        const customer = await customerWithCard(distinctCard(910 + index))
        users.push(customer.user)
        // One address written eight ways: case, punctuation, spacing and abbreviations.
        const street = index % 2 ? '9 ADDRESS  street.' : '9 Address St'
        const profile = await profileFor(
          customer.user,
          drawProfileData(index, DRAW_CARDS[0], street)
        )
        attempts.push({ token: customer.token, profileId: profile.publicId, rule: 'address' })
      }
      const one = await customerWithCard(distinctCard(920))
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

  test('a rush of entries across the close: every entry written is in the frozen list and ranked', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const users: User[] = []
    const people: { token: string; profileId: string }[] = []
    // Accounts and profiles first (real time), then the draw on a recorded round.
    for (let index = 0; index < 24; index++) {
      const customer = await customerWithCard(distinctCard(700 + index))
      users.push(customer.user)
      const profile = await profileFor(
        customer.user,
        drawProfileData(index, DRAW_CARDS[0], `${index + 1} Rush Avenue`)
      )
      people.push({ token: customer.token, profileId: profile.publicId })
    }
    const draw = await recordedDraw(657413, { totalStock: 5 })
    try {
      // Committed when entries opened (the scheduled job, or the first entry, does it).
      await drawRunner.proof(draw.product.id)
      clock.freeze(draw.closesAt - 2000)
      // Sent at once (a request builder only goes out when something waits on it).
      const enter = (person: { token: string; profileId: string }) =>
        client
          .post('/api/checkout/withprofile')
          .bearerToken(person.token)
          .json({
            productId: draw.product.id,
            style: 'Black',
            size: '9',
            profileId: person.profileId,
          })
          .then((response: any) => response)
      // Half the rush before the close; the clock passes the close while the rest arrive,
      // with the close itself racing them.
      const first = people.slice(0, 12).map(enter)
      // The clock passes the close once some of them are in and others still on their way.
      for (let waited = 0; waited < 30_000; waited += 5) {
        const [row] = await db
          .from('draw_entries')
          .where('product_id', draw.product.id)
          .count('* as total')
        if (Number(row.total) >= 3) break
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      draw.afterClose()
      // The public proof freezes the list as soon as entries have closed.
      const closing = drawRunner.proof(draw.product.id)
      const second = people.slice(12).map(enter)
      const responses = await Promise.all([...first, ...second])
      await closing
      const statuses = responses.map((response) => response.status())
      assert.isTrue(
        statuses.every((status) => status === 201 || status === 409),
        `${statuses}`
      )
      assert.isTrue(statuses.includes(409), 'some came after the close')
      for (const response of responses) {
        if (response.status() === 409) assert.equal(response.body().code, 'draw_closed')
      }

      const rows = await db.from('draw_entries').where('product_id', draw.product.id)
      const written = rows.map((row) => String(row.public_id))
      assert.equal(written.length, statuses.filter((status) => status === 201).length)
      assert.isAbove(written.length, 0)
      const record = (await drawRecords.find(draw.product.id))!
      assert.equal(record.entryCount, written.length, 'every entry written is in the frozen list')
      assert.equal(record.entriesRoot, merkleRoot([...written].sort()))
      const orders = await db.from('orders').where('product_id', draw.product.id)
      assert.lengthOf(orders, written.length, 'no order without its entry')
      // Once frozen, no entry can be written, whatever the clock says.
      clock.freeze(draw.closesAt - 5000)
      const late = await enter(people[people.length - 1])
      assert.equal(late.status(), 409)

      clock.reset()
      await placeHolds()
      draw.afterRound()
      await drawRunner.run(draw.product.id, { label: 'test' }, { beacon: RECORDED_ROUNDS[657413] })
      const results = await db
        .from('draw_entries')
        .where('product_id', draw.product.id)
        .select('result')
      assert.isTrue(
        results.every((row) => ['winner', 'alternate'].includes(row.result)),
        'every entry ranked'
      )
      const proof = await drawRunner.proof(draw.product.id)
      const result194 = await verifyDraw(proof)
      assert.isTrue(result194.ok)
    } finally {
      clock.reset()
      await removeDraw(draw.product, users)
      await restoreSandbox()
    }
  }).timeout(180_000)
})
