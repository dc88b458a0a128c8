import { writeFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type User from '#accounts/models/user'
import { clock } from '#core/services/clock'
import { drawRunner } from '#draws/services/draw_runner'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { drawResult } from '#shared/draw'
import { runCli, runCommand } from '#tests/support/cli'
import { customerWithCard, placeHolds, profileFor } from '#tests/helpers'
import {
  DRAW_CARDS,
  distinctCard,
  drawProfileData,
  recordedDraw,
  removeDraw,
} from '#tests/support/draws'
import { sandboxSnapshot } from '#tests/support/release'

/** Entrants with their own cards and streets, entered (in time) through the checkout. */
async function enterSome(count: number, base: number) {
  const people = []
  for (let index = 0; index < count; index++) {
    const customer = await customerWithCard(distinctCard(base + index))
    const profile = await profileFor(
      customer.user,
      drawProfileData(index, DRAW_CARDS[index % 4], `${index + 1} Verify Street`)
    )
    people.push({ ...customer, profile })
  }
  return people
}

/** Each of `people` enters the draw of `productId` through the checkout (201 each). */
async function enterAll(
  client: ApiClient,
  people: Awaited<ReturnType<typeof enterSome>>,
  productId: number
) {
  for (const person of people) {
    const entry = await client
      .post('/api/checkout/withprofile')
      .bearerToken(person.token)
      .json({ productId, style: 'Black', size: '9', profileId: person.profile.publicId })
    entry.assertStatus(201)
  }
}

test.group('CLI: draw:run and draw:verify', () => {
  test('draw:run --beacon takes only a round whose signature verifies; draw:verify checks everything and fails on any change', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const people = await enterSome(4, 300)
    const users: User[] = people.map((person) => person.user)
    const draw = await recordedDraw(657413, { totalStock: 2 })
    const beaconPath = `${tmpdir()}/dropslot-beacon-${process.pid}-${draw.product.id}.json`
    const forgedPath = `${tmpdir()}/dropslot-beacon-forged-${process.pid}-${draw.product.id}.json`
    try {
      await enterAll(client, people, draw.product.id)
      await placeHolds()
      clock.reset()
      const round: Record<string, unknown> & { signature: string } = { ...RECORDED_ROUNDS[657413] }
      delete round.chainHash
      await writeFile(beaconPath, JSON.stringify(round))
      const sig = round.signature
      const forged = {
        ...round,
        signature: `${sig.slice(0, 60)}${sig[60] === 'f' ? 'e' : 'f'}${sig.slice(61)}`,
      }
      await writeFile(forgedPath, JSON.stringify(forged))
      const id = String(draw.product.id)

      const refused = await runCommand([
        '--json',
        'draw:run',
        '--product',
        id,
        '--beacon',
        forgedPath,
      ])
      assert.notEqual(refused.code, 0)
      assert.include(refused.stdout + refused.stderr, 'valid signature')
      const notDrawn = await db.from('draws').where('product_id', draw.product.id).first()
      assert.isNull(notDrawn.drawn_at)

      const run = await runCommand(['--json', 'draw:run', '--product', id, '--beacon', beaconPath])
      assert.equal(run.code, 0, run.stderr)
      assert.isTrue(run.json.drawnNow)
      assert.equal(run.json.round, 657413)
      assert.lengthOf(run.json.winners, 2)

      const verify = await runCommand(['--json', 'draw:verify', '--product', id])
      assert.equal(verify.code, 0, verify.stderr)
      assert.isTrue(verify.json.ok)
      assert.deepEqual(verify.json.winners, run.json.winners)
      // From a running Dropslot's public API, with one entry's inclusion, no database needed.
      const base = `http://${env.get('HOST')}:${env.get('PORT')}`
      const remote = await runCommand([
        'draw:verify',
        '--product',
        id,
        '--url',
        base,
        '--entry',
        run.json.alternates[0],
      ])
      assert.equal(remote.code, 0, remote.stderr)
      assert.include(remote.stdout, 'ok   beacon')
      assert.include(remote.stdout, 'ok   inclusion')

      // Any change in the database afterwards: the check fails, and says where.
      const entry = await db.from('draw_entries').where('product_id', draw.product.id).first()
      const tamper = async (
        change: () => Promise<unknown>,
        undo: () => Promise<unknown>,
        check: string
      ) => {
        await change()
        const result = await runCommand(['--json', 'draw:verify', '--product', id])
        await undo()
        assert.equal(result.code, 1, check)
        const failed = result.json.checks
          .filter((c: any) => c.status === 'fail')
          .map((c: any) => c.name)
        assert.include(failed, check)
      }
      await tamper(
        () =>
          db
            .from('draw_entries')
            .where('id', entry.id)
            .update({ public_id: 'ffffffff-0000-4000-8000-000000000000' }),
        () => db.from('draw_entries').where('id', entry.id).update({ public_id: entry.public_id }),
        'entries'
      )
      const record = await db.from('draws').where('product_id', draw.product.id).first()
      await tamper(
        () =>
          db
            .from('draws')
            .where('id', record.id)
            .update({ seed: 'f'.repeat(64) }),
        () => db.from('draws').where('id', record.id).update({ seed: record.seed }),
        'seed'
      )
      await tamper(
        () =>
          db
            .from('draws')
            .where('id', record.id)
            .update({ slots: record.slots + 1 }),
        () => db.from('draws').where('id', record.id).update({ slots: record.slots }),
        'commitment'
      )
      const again = await runCommand(['--json', 'draw:verify', '--product', id])
      assert.equal(again.code, 0, 'the untouched draw verifies again')
    } finally {
      clock.reset()
      await rm(beaconPath, { force: true })
      await rm(forgedPath, { force: true })
      await removeDraw(draw.product, users)
      await restoreSandbox()
    }
  }).timeout(240_000)

  test('draw:verify fails on a published proof whose top winner was removed, and says why', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const people = await enterSome(3, 500)
    const users: User[] = people.map((person) => person.user)
    const draw = await recordedDraw(657413, { totalStock: 1 })
    const server = createServer()
    try {
      await enterAll(client, people, draw.product.id)
      await placeHolds()
      draw.afterClose()
      await drawRunner.proof(draw.product.id)
      draw.afterRound()
      await drawRunner.run(draw.product.id, { label: 'test' }, { beacon: RECORDED_ROUNDS[657413] })
      const proof = await drawRunner.proof(draw.product.id)
      // Served as a Dropslot would serve it, with the top winner left out of the ranking.
      const [top] = proof.winners
      const rest = drawResult(
        proof.seed!,
        proof.beacon!.randomness!,
        proof.entries.filter((entryId) => entryId !== top),
        proof.slots
      )
      const tampered = { ...proof, ...rest }
      server.on('request', (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(tampered))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const id = String(draw.product.id)
      const verify = await runCommand(['draw:verify', '--product', id, '--url', url])
      assert.equal(verify.code, 1, verify.stdout)
      assert.include(verify.stdout, `FAIL winners: Entry ${top}`)
      assert.include(verify.stdout, 'missing from the ranking')
    } finally {
      clock.reset()
      server.close()
      await removeDraw(draw.product, users)
      await restoreSandbox()
    }
  }).timeout(120_000)

  test('a crash between deciding and settling is finished by the sweep', async ({
    client,
    assert,
  }) => {
    const restoreSandbox = await sandboxSnapshot()
    const people = await enterSome(4, 400)
    const users: User[] = people.map((person) => person.user)
    const draw = await recordedDraw(657413, { totalStock: 2 })
    const beaconPath = `${tmpdir()}/dropslot-beacon-crash-${process.pid}-${draw.product.id}.json`
    try {
      await enterAll(client, people, draw.product.id)
      await placeHolds()
      clock.reset()
      await writeFile(beaconPath, JSON.stringify(RECORDED_ROUNDS[657413]))
      const crashed = await runCli(
        ['--json', 'draw:run', '--product', String(draw.product.id), '--beacon', beaconPath],
        { DROPSLOT_CRASH_AFTER: 'draw-decided' }
      )
      assert.notEqual(crashed.code, 0, 'the process was killed')
      const record = await db.from('draws').where('product_id', draw.product.id).first()
      assert.isNotNull(record.drawn_at, 'the result was decided')
      assert.isNull(record.settled_at)
      const entered = await db
        .from('orders')
        .where('product_id', draw.product.id)
        .where('status', 'entered')
      assert.lengthOf(entered, 4, 'and nothing moved yet')

      await drawRunner.sweep()
      const orders = await db.from('orders').where('product_id', draw.product.id)
      assert.sameMembers(
        orders.map((order) => order.status),
        ['pending', 'pending', 'cancelled', 'cancelled']
      )
      for (const order of orders.filter((o) => o.status === 'cancelled')) {
        assert.equal(order.hold_status, 'released')
      }
      const settled = await db.from('draws').where('product_id', draw.product.id).first()
      assert.isNotNull(settled.settled_at)
      const mails = await db
        .from('email_messages')
        .whereIn(
          'order_id',
          orders.map((order) => order.id)
        )
        .whereIn('template', ['draw_won', 'draw_not_selected'])
      assert.lengthOf(mails, 4, 'each entrant told once')
    } finally {
      await rm(beaconPath, { force: true })
      await removeDraw(draw.product, users)
      await restoreSandbox()
    }
  }).timeout(180_000)
})
