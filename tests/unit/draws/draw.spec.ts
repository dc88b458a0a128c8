import { createHash, createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import {
  BEACON_DELAY_SECONDS,
  QUICKNET,
  drawResult,
  drawRound,
  firstRoundAtOrAfter,
  makeCommitment,
  merkleProof,
  merkleRoot,
  rankEntries,
  roundTime,
  sha256Hex,
  verifyBeacon,
  verifyDraw,
  verifyInclusion,
  type Beacon,
  type DrawProof,
} from '#shared/draw'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'

const entries = (count: number) =>
  Array.from({ length: count }, (_, index) => `entry-${String(index).padStart(4, '0')}`)
/** Seeds and randomness derived from a counter: the same every run, so these tests cannot flake. */
const hexOf = (label: string) => createHash('sha256').update(label).digest('hex')

/** Flips one hex digit of a string at a position. */
function changeByte(value: string, at: number) {
  const digit = value[at]
  return value.slice(0, at) + (digit === '0' ? '1' : '0') + value.slice(at + 1)
}

/** A drawn draw on a recorded round, as the API would publish it. */
function publishedDraw(options: { entryCount?: number; slots?: number } = {}) {
  const beacon: Beacon = RECORDED_ROUNDS[657413]
  const closesAt = new Date((roundTime(beacon.round) - BEACON_DELAY_SECONDS) * 1000)
  const opensAt = new Date(closesAt.getTime() - 3_600_000)
  const seed = hexOf('demo seed')
  const slots = options.slots ?? 3
  const commitment = makeCommitment({
    productId: 7,
    seed,
    slots,
    entryOpensAt: opensAt,
    entryClosesAt: closesAt,
  })
  // The entries whose card check stood at the close: every one of them is ranked.
  const ids = entries(options.entryCount ?? 12).sort()
  const result = drawResult(seed, beacon.randomness, ids, slots)
  const proof: DrawProof = {
    productId: 7,
    status: 'drawn',
    commitment,
    slots,
    entryOpensAt: opensAt.toISOString(),
    entryClosesAt: closesAt.toISOString(),
    beacon: { ...beacon },
    entriesRoot: merkleRoot(ids),
    entries: ids,
    entryCount: ids.length,
    seed,
    winners: result.winners,
    alternates: result.alternates,
    replacements: [],
  }
  return proof
}

async function failed(proof: DrawProof) {
  const verification = await verifyDraw(proof)
  return verification.checks.filter((check) => check.status === 'fail').map((c) => c.name)
}

test.group('Draw rules: the beacon', () => {
  test('every recorded quicknet round verifies against the chain public key', async ({
    assert,
  }) => {
    for (const beacon of Object.values(RECORDED_ROUNDS)) {
      assert.equal(beacon.chainHash, QUICKNET.chainHash)
      assert.equal(sha256Hex(Buffer.from(beacon.signature, 'hex')), beacon.randomness)
      assert.isTrue(await verifyBeacon(beacon, beacon.round), `round ${beacon.round}`)
    }
  })

  test('a changed byte of the signature, the randomness or the round number fails', async ({
    assert,
  }) => {
    const beacon: Beacon = RECORDED_ROUNDS[123]
    for (const at of [0, 10, 47, 95]) {
      assert.isFalse(
        await verifyBeacon({ ...beacon, signature: changeByte(beacon.signature, at) }, 123),
        `signature digit ${at}`
      )
    }
    // The randomness re-derived from a changed signature still fails on the signature.
    const forged = changeByte(beacon.signature, 20)
    const rehashed = sha256Hex(Buffer.from(forged, 'hex'))
    assert.isFalse(await verifyBeacon({ ...beacon, signature: forged, randomness: rehashed }, 123))
    for (const at of [0, 31, 63]) {
      assert.isFalse(
        await verifyBeacon({ ...beacon, randomness: changeByte(beacon.randomness, at) }, 123)
      )
    }
    assert.isFalse(await verifyBeacon({ ...beacon, round: 124 }, 124))
    assert.isFalse(await verifyBeacon(beacon, 124), 'a round other than the expected one')
    assert.isFalse(await verifyBeacon({ ...beacon, chainHash: 'ab'.repeat(32) }, 123))
    assert.isFalse(await verifyBeacon({ ...beacon, signature: 'zz' }, 123))
  })

  test('the round is the first quicknet round at least 60 s after entries close', ({ assert }) => {
    assert.equal(roundTime(1), QUICKNET.genesisTime)
    assert.equal(roundTime(657413), 1694775603)
    assert.equal(firstRoundAtOrAfter(1694775603), 657413)
    assert.equal(firstRoundAtOrAfter(1694775602), 657413)
    assert.equal(firstRoundAtOrAfter(1694775604), 657414)
    assert.equal(drawRound(new Date((1694775603 - 60) * 1000)), 657413)
    assert.equal(drawRound(new Date((1694775603 - 62) * 1000)), 657413)
    assert.equal(drawRound(new Date((1694775603 - 59) * 1000)), 657414)
    for (let close = 1_700_000_000; close < 1_700_000_010; close++) {
      const round = drawRound(close * 1000)
      assert.isAtLeast(roundTime(round), close + 60)
      assert.isBelow(roundTime(round - 1), close + 60)
    }
  })
})

test.group('Draw rules: the frozen entry list', () => {
  test('root from leaves SHA-256(id), parents SHA-256(left||right), an odd node moves up', ({
    assert,
  }) => {
    const sha = (data: Buffer | string) => createHash('sha256').update(data).digest()
    const [a, b, c] = ['a', 'b', 'c'].map((id) => sha(id))
    const ab = sha(Buffer.concat([a, b]))
    assert.equal(merkleRoot(['a', 'b', 'c']), sha(Buffer.concat([ab, c])).toString('hex'))
    assert.equal(merkleRoot(['a']), a.toString('hex'))
    assert.equal(merkleRoot([]), sha('').toString('hex'))
  })

  test('every entry of lists of 1 to 33 has an inclusion proof; a changed one does not', ({
    assert,
  }) => {
    for (let count = 1; count <= 33; count++) {
      const ids = entries(count)
      const root = merkleRoot(ids)
      for (let index = 0; index < count; index++) {
        const proof = {
          entryId: ids[index],
          index,
          entryCount: count,
          siblings: merkleProof(ids, index),
        }
        assert.isTrue(verifyInclusion(proof, root), `${index} of ${count}`)
        assert.isFalse(verifyInclusion({ ...proof, entryId: `${ids[index]}x` }, root))
        if (count > 1) {
          assert.isFalse(verifyInclusion({ ...proof, index: (index + 1) % count }, root))
          assert.isFalse(
            verifyInclusion(
              {
                ...proof,
                siblings: [changeByte(proof.siblings[0], 5), ...proof.siblings.slice(1)],
              },
              root
            )
          )
        }
      }
    }
  })
})

test.group('Draw rules: the ranking', () => {
  test('scores are HMAC-SHA256(key = seed hex text, message = randomness:entry id)', ({
    assert,
  }) => {
    const seed = hexOf('seed')
    const randomness = RECORDED_ROUNDS[42].randomness
    const byHand = entries(20)
      .map((entryId) => ({
        entryId,
        score: createHmac('sha256', seed).update(`${randomness}:${entryId}`).digest('hex'),
      }))
      .sort((x, y) => (x.score < y.score ? -1 : 1))
      .map((entry) => entry.entryId)
    const ranked = rankEntries(seed, randomness, entries(20))
    assert.deepEqual(
      ranked.map((entry) => entry.entryId),
      byHand
    )
    const { winners, alternates } = drawResult(seed, randomness, [...entries(20)].reverse(), 4)
    assert.deepEqual(winners, byHand.slice(0, 4))
    assert.deepEqual(alternates, byHand.slice(4))
    assert.deepEqual(drawResult(seed, randomness, entries(2), 4).winners.length, 2)
  })

  test('the same seed with another round gives other winners: the seed alone decides nothing', ({
    assert,
  }) => {
    const seed = hexOf('known early')
    const a = drawResult(seed, RECORDED_ROUNDS[42].randomness, entries(50), 5).winners
    const b = drawResult(seed, RECORDED_ROUNDS[123].randomness, entries(50), 5).winners
    assert.notDeepEqual(a, b)
  })

  test('fair: over 4,000 draws every entry wins at S/N within five standard deviations', ({
    assert,
  }) => {
    const pool = entries(10)
    const slots = 3
    const draws = 4000
    const wins = new Map(pool.map((entryId) => [entryId, 0]))
    const seed = hexOf('one seed for every draw')
    for (let index = 0; index < draws; index++) {
      for (const winner of drawResult(seed, hexOf(`round ${index}`), pool, slots).winners) {
        wins.set(winner, wins.get(winner)! + 1)
      }
    }
    const expected = slots / pool.length
    const tolerance = 5 * Math.sqrt((expected * (1 - expected)) / draws)
    for (const [entryId, count] of wins) {
      const rate = count / draws
      assert.isBelow(Math.abs(rate - expected), tolerance, `${entryId} won ${rate} of draws`)
    }
  }).timeout(30_000)
})

test.group('Draw rules: verifying a published draw', () => {
  test('a published draw on a recorded round verifies, step by step', async ({ assert }) => {
    const proof = publishedDraw()
    const verification = await verifyDraw(proof)
    assert.isTrue(verification.ok, JSON.stringify(verification.checks))
    assert.deepEqual(
      verification.checks.map((check) => [check.name, check.status]),
      [
        ['commitment', 'pass'],
        ['seed', 'pass'],
        ['beacon', 'pass'],
        ['entries', 'pass'],
        ['winners', 'pass'],
      ]
    )
    assert.include(verification.checks[4].detail, 'all 12 frozen entries')
    const index = proof.entries.indexOf(proof.winners[0])
    const inclusion = {
      entryId: proof.winners[0],
      index,
      entryCount: proof.entryCount,
      siblings: merkleProof(proof.entries, index),
      entriesRoot: proof.entriesRoot!,
    }
    const withEntry = await verifyDraw(proof, { inclusion })
    assert.isTrue(withEntry.ok)
    assert.equal(withEntry.checks.at(-1)!.name, 'inclusion')
  })

  test('fails when an entry is added, removed or changed', async ({ assert }) => {
    const proof = publishedDraw()
    const added = [...proof.entries, 'zzzz-added'].sort()
    assert.include(await failed({ ...proof, entries: added, entryCount: added.length }), 'entries')
    const removed = proof.entries.filter((id) => id !== proof.alternates[0])
    assert.includeMembers(
      await failed({
        ...proof,
        entries: removed,
        entryCount: removed.length,
        alternates: proof.alternates.slice(1),
      }),
      ['entries']
    )
    const changed = proof.entries.map((id, i) => (i === 3 ? `${id}0` : id))
    assert.include(await failed({ ...proof, entries: changed }), 'entries')
  })

  test('fails when a frozen entry is missing from the ranking, the top winner first, and says why', async ({
    assert,
  }) => {
    const proof = publishedDraw()
    const [top] = proof.winners
    // Ranked again without it, as if its card check had been declared not placed after the draw.
    const without = drawResult(
      proof.seed!,
      proof.beacon!.randomness!,
      proof.entries.filter((entryId) => entryId !== top),
      proof.slots
    )
    const verification = await verifyDraw({ ...proof, ...without })
    assert.isFalse(verification.ok)
    const failedChecks = verification.checks.filter((check) => check.status === 'fail')
    assert.deepEqual(
      failedChecks.map((check) => check.name),
      ['winners']
    )
    assert.include(failedChecks[0].detail, `Entry ${top}`)
    assert.include(failedChecks[0].detail, 'ranked 1 by the rule')
    assert.include(failedChecks[0].detail, 'missing from the ranking')
    const lastOut = await verifyDraw({ ...proof, alternates: proof.alternates.slice(0, -1) })
    assert.include(lastOut.checks[4].detail, 'missing from the ranking')
    const twice = await verifyDraw({ ...proof, alternates: [...proof.alternates, top] })
    assert.equal(twice.checks[4].status, 'fail')
  })

  test('a winner who drops out is replaced by the next alternate, each with its reason', async ({
    assert,
  }) => {
    const proof = publishedDraw({ slots: 3 })
    const [first, second] = proof.winners
    const [a0, a1, a2] = proof.alternates
    const checked = async (replacements: DrawProof['replacements']) => {
      const verification = await verifyDraw({ ...proof, replacements })
      return verification.checks[4]
    }

    const replaced = await checked([
      { entryId: second, reason: 'card_check_declined', replacedBy: a0 },
    ])
    assert.equal(replaced.status, 'pass', replaced.detail)
    assert.include(replaced.detail, `${second} (card check declined) replaced by ${a0}`)
    // An alternate whose own check failed first is passed over, with its reason; a promoted
    // alternate who drops out in turn is replaced by the next one.
    const chain = await checked([
      { entryId: a0, reason: 'card_check_declined', replacedBy: null },
      { entryId: first, reason: 'withdrawn', replacedBy: a1 },
      { entryId: a1, reason: 'card_check_not_confirmed', replacedBy: a2 },
    ])
    assert.equal(chain.status, 'pass', chain.detail)

    const outOfTurn = await checked([{ entryId: first, reason: 'withdrawn', replacedBy: a1 }])
    assert.equal(outOfTurn.status, 'fail')
    assert.include(outOfTurn.detail, a0)
    const unreplaced = await checked([{ entryId: first, reason: 'withdrawn', replacedBy: null }])
    assert.equal(unreplaced.status, 'fail')
    const byWinner = await checked([{ entryId: first, reason: 'withdrawn', replacedBy: second }])
    assert.equal(byWinner.status, 'fail')
    const noReason = await checked([{ entryId: first, reason: '', replacedBy: a0 }])
    assert.equal(noReason.status, 'fail')
    const stranger = await checked([{ entryId: 'not-ranked', reason: 'withdrawn', replacedBy: a0 }])
    assert.equal(stranger.status, 'fail')
  })

  test('fails when the seed, the slots or the round differ from the commitment', async ({
    assert,
  }) => {
    const proof = publishedDraw()
    assert.include(await failed({ ...proof, seed: hexOf('another seed') }), 'seed')
    assert.include(await failed({ ...proof, slots: proof.slots + 1 }), 'commitment')
    const recommitted = { ...proof.commitment!, slots: proof.slots + 1 }
    assert.include(
      await failed({ ...proof, commitment: recommitted, slots: proof.slots + 1 }),
      'commitment'
    )
    const otherRound = RECORDED_ROUNDS[123]
    assert.include(await failed({ ...proof, beacon: { ...otherRound } }), 'beacon')
    const lateCommitment = { ...proof.commitment!, round: proof.commitment!.round + 1 }
    assert.include(await failed({ ...proof, commitment: lateCommitment }), 'commitment')
    const swapped = [proof.alternates[0], ...proof.winners.slice(1)]
    assert.include(
      await failed({
        ...proof,
        winners: swapped,
        alternates: [proof.winners[0], ...proof.alternates.slice(1)],
      }),
      'winners'
    )
  })

  test('before the draw, the steps not reached are pending, not failed', async ({ assert }) => {
    const proof = publishedDraw()
    const open: DrawProof = {
      ...proof,
      status: 'open',
      beacon: {
        chainHash: QUICKNET.chainHash,
        round: proof.commitment!.round,
        randomness: null,
        signature: null,
      },
      entriesRoot: null,
      entries: [],
      seed: null,
      winners: [],
      alternates: [],
    }
    const verification = await verifyDraw(open)
    assert.isTrue(verification.ok)
    assert.deepEqual(
      verification.checks.map((check) => check.status),
      ['pass', 'pending', 'pending', 'pending', 'pending']
    )
  })
})
