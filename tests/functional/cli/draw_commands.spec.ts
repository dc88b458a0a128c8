import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type User from '#accounts/models/user'
import { runCli } from '#tests/support/cli'
import { customerWithCard, placeHolds, profileFor } from '#tests/helpers'
import { DRAW_CARDS, drawProduct, drawProfileData, removeDraw } from '#tests/support/draws'
import { sandboxSnapshot } from '#tests/support/release'

test.group('CLI: draw:run and draw:verify', (group) => {
  group.each.setup(() => limiter.clear())

  test('draw:run draws once; draw:verify recomputes the winners from the published proof', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const product = await drawProduct({ totalStock: 2 })
    const users: User[] = []
    try {
      for (let index = 0; index < 4; index++) {
        const customer = await customerWithCard()
        users.push(customer.user)
        const profile = await profileFor(
          customer.user,
          drawProfileData(index, DRAW_CARDS[index], `${index + 1} Verify Street`)
        )
        const entry = await client
          .post('/api/checkout/withprofile')
          .bearerToken(customer.token)
          .json({ productId: product.id, style: 'Black', size: '9', profileId: profile.publicId })
        entry.assertStatus(201)
      }
      await placeHolds()
      const early = await runCli(['--json', 'draw:run', '--product', String(product.id)])
      assert.notEqual(early.code, 0)
      assert.include(early.stdout + early.stderr, 'close')

      await product.merge({ entryClosesAt: DateTime.now().minus({ seconds: 1 }) }).save()
      const run = await runCli(['--json', 'draw:run', '--product', String(product.id)])
      assert.equal(run.code, 0, run.stderr)
      assert.isTrue(run.json.drawnNow)
      assert.lengthOf(run.json.winners, 2)
      const again = await runCli(['--json', 'draw:run', '--product', String(product.id)])
      assert.equal(again.code, 0, again.stderr)
      assert.isFalse(again.json.drawnNow)
      assert.deepEqual(again.json.winners, run.json.winners)

      const verify = await runCli(['--json', 'draw:verify', '--product', String(product.id)])
      assert.equal(verify.code, 0, verify.stderr)
      assert.deepInclude(verify.json, { commitmentMatches: true, winnersMatch: true })
      assert.deepEqual(verify.json.winners, run.json.winners)
      // The same from a running Dropslot's public page, without this install's database.
      const base = `http://${env.get('HOST')}:${env.get('PORT')}`
      const remote = await runCli(['draw:verify', '--product', String(product.id), '--url', base])
      assert.equal(remote.code, 0, remote.stderr)
      assert.include(remote.stdout, 'the published winners are recomputed exactly')

      // A seed swapped after the fact no longer matches the commitment made before the entries.
      await db
        .from('products')
        .where('id', product.id)
        .update({ draw_seed: 'f'.repeat(64) })
      const tampered = await runCli(['--json', 'draw:verify', '--product', String(product.id)])
      assert.equal(tampered.code, 1)
      assert.isFalse(tampered.json.commitmentMatches)
    } finally {
      await removeDraw(product, users)
      await restoreSandbox()
    }
  }).timeout(180_000)
})
