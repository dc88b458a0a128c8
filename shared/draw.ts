/*
| The rules of a draw (and of a waiting room's line), written once for the server, the
| `dropslot draw:verify` command and the storefront's proof page, so anyone can check a result
| from the published data alone. Nothing in it trusts the operator:
|
| 1. The commitment, fixed when entries open: the SHA-256 of a secret seed, the slot count, the
|    entry window and a drand quicknet round (its chain hash and public key): the first round at
|    least 60 s after entries close. Its digest is the SHA-256 of `commitmentStatement` and is in
|    every entrant's e-mail receipt.
| 2. The entry list, frozen when entries close: the entries whose $1.00 card check stands then
|    (placed, or still being placed), their ids in ascending order and their Merkle root.
|    Leaf = SHA-256(entry id as UTF-8); parent = SHA-256(left digest || right digest), the
|    32-byte digests; a last odd node moves up unchanged; the root of no entries is SHA-256("").
| 3. The beacon: drand quicknet's signature of the committed round (BLS12-381, unchained,
|    signatures on G1), verified with the chain's public key; randomness = SHA-256(signature).
| 4. The ranking (shared/draw_ranking.ts): every frozen entry, by score = HMAC-SHA256(key = the
|    seed as hex text, message = randomness hex + ":" + entry id), lowest first; the first `slots`
|    win and the rest are the ranked alternates. Nobody knows the randomness before the round,
|    after the entries are frozen, so knowing the seed early tells nobody which entries will win,
|    and nothing decided after it takes an entry out. A winner who drops out later is replaced by
|    the next alternate, and the proof lists each replacement with its reason.
*/
import { sha256 } from '@noble/hashes/sha256'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { checkRanking, compareIds, rankEntries, type Replacement } from './draw_ranking.js'

export {
  compareIds,
  drawResult,
  rankEntries,
  DROP_REASONS,
  type Replacement,
} from './draw_ranking.js'

/** drand's quicknet chain (League of Entropy mainnet, 3 s rounds): the only beacon we accept. */
export const QUICKNET = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1692803367,
  period: 3,
  schemeID: 'bls-unchained-g1-rfc9380',
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  beaconID: 'quicknet',
} as const

/** The committed round is the first one at least this long after entries close. */
export const BEACON_DELAY_SECONDS = 60

/** A beacon round as drand publishes it (hex, lower case). */
export type Beacon = { chainHash: string; round: number; randomness: string; signature: string }

/** The draw's record fixed when entries open, and its digest (in every entrant's receipt). */
export type Commitment = {
  productId: number
  seedHash: string
  slots: number
  entryOpensAt: string
  entryClosesAt: string
  chainHash: string
  publicKey: string
  round: number
  digest: string
}

/** What anyone may see of a draw (`GET /api/products/:id/draw`): no personal data. */
export type DrawProof = {
  productId: number
  /** not_open (nothing committed yet) | open (committed, taking entries) | closed (list frozen, waiting for the round) | drawn. */
  status: 'not_open' | 'open' | 'closed' | 'drawn'
  commitment: Commitment | null
  slots: number
  entryOpensAt: string | null
  entryClosesAt: string | null
  /** The committed round; its randomness and signature once the draw has run. */
  beacon: Beacon | { chainHash: string; round: number; randomness: null; signature: null } | null
  /** Once entries have closed. */
  entriesRoot: string | null
  /** The frozen entry ids (card check standing at the close), ascending, once entries have closed. */
  entries: string[]
  entryCount: number
  /** Published once the draw has run. */
  seed: string | null
  winners: string[]
  alternates: string[]
  /** Ranked entries that dropped out since the draw, in order, each with its reason. */
  replacements: Replacement[]
}

/** One entry's place in the frozen list (`GET /api/products/:id/draw/entries/:entryId`). */
export type InclusionProof = {
  entryId: string
  index: number
  entryCount: number
  /** The sibling digests from the leaf up (a level where the node has none is skipped). */
  siblings: string[]
  entriesRoot: string
}

export type CheckName = 'commitment' | 'seed' | 'beacon' | 'entries' | 'winners' | 'inclusion'
export type Check = { name: CheckName; status: 'pass' | 'fail' | 'pending'; detail: string }
export type DrawVerification = {
  ok: boolean
  checks: Check[]
  /** The result recomputed by the rule (empty before the draw). */
  winners: string[]
  alternates: string[]
}

// ---------------------------------------------------------------------------------------------
// Hashes

const encode = (value: string) => utf8ToBytes(value)

export function sha256Hex(value: string | Uint8Array): string {
  return bytesToHex(sha256(typeof value === 'string' ? encode(value) : value))
}

const HEX = /^[0-9a-f]*$/
const isHex = (value: unknown, bytes?: number): value is string =>
  typeof value === 'string' &&
  HEX.test(value) &&
  value.length % 2 === 0 &&
  (bytes === undefined || value.length === bytes * 2)

// ---------------------------------------------------------------------------------------------
// Rounds

/** When a quicknet round is published (unix seconds). */
export function roundTime(round: number): number {
  return QUICKNET.genesisTime + (round - 1) * QUICKNET.period
}

/** The first quicknet round published at or after a time (unix seconds). */
export function firstRoundAtOrAfter(seconds: number): number {
  if (seconds <= QUICKNET.genesisTime) return 1
  return Math.ceil((seconds - QUICKNET.genesisTime) / QUICKNET.period) + 1
}

/** Unix seconds of an ISO time, a Date or milliseconds. */
export function unixSeconds(value: string | Date | number): number {
  const ms = typeof value === 'number' ? value : new Date(value).getTime()
  return Math.floor(ms / 1000)
}

/** The round a draw commits to: the first at least 60 s after its entries close. */
export function drawRound(entryClosesAt: string | Date | number): number {
  return firstRoundAtOrAfter(unixSeconds(entryClosesAt) + BEACON_DELAY_SECONDS)
}

// ---------------------------------------------------------------------------------------------
// The commitment

/** The text whose SHA-256 is the commitment's digest: one `name:value` a line, in this order. */
export function commitmentStatement(record: Omit<Commitment, 'digest'>): string {
  return [
    'dropslot-draw-commitment-v1',
    `product:${record.productId}`,
    `seed-sha256:${record.seedHash}`,
    `slots:${record.slots}`,
    `entries-open:${unixSeconds(record.entryOpensAt)}`,
    `entries-close:${unixSeconds(record.entryClosesAt)}`,
    `beacon-chain:${record.chainHash}`,
    `beacon-public-key:${record.publicKey}`,
    `beacon-round:${record.round}`,
  ].join('\n')
}

/** A commitment for a seed and a draw's terms, with its digest. */
export function makeCommitment(input: {
  productId: number
  seed: string
  slots: number
  entryOpensAt: Date | string
  entryClosesAt: Date | string
}): Commitment {
  const record = {
    productId: input.productId,
    seedHash: sha256Hex(input.seed),
    slots: input.slots,
    entryOpensAt: new Date(unixSeconds(input.entryOpensAt) * 1000).toISOString(),
    entryClosesAt: new Date(unixSeconds(input.entryClosesAt) * 1000).toISOString(),
    chainHash: QUICKNET.chainHash,
    publicKey: QUICKNET.publicKey,
    round: drawRound(input.entryClosesAt),
  }
  return { ...record, digest: sha256Hex(commitmentStatement(record)) }
}

// ---------------------------------------------------------------------------------------------
// The frozen entry list

function leaf(entryId: string): Uint8Array {
  return sha256(encode(entryId))
}

function parent(left: Uint8Array, right: Uint8Array): Uint8Array {
  const both = new Uint8Array(64)
  both.set(left, 0)
  both.set(right, 32)
  return sha256(both)
}

function nextLevel(level: Uint8Array[]): Uint8Array[] {
  const up: Uint8Array[] = []
  for (let index = 0; index < level.length; index += 2) {
    up.push(index + 1 < level.length ? parent(level[index], level[index + 1]) : level[index])
  }
  return up
}

/** The Merkle root of entry ids already in ascending order. */
export function merkleRoot(sortedIds: readonly string[]): string {
  if (sortedIds.length === 0) return sha256Hex('')
  let level = sortedIds.map(leaf)
  while (level.length > 1) level = nextLevel(level)
  return bytesToHex(level[0])
}

/** The sibling digests of one entry, leaf to root. */
export function merkleProof(sortedIds: readonly string[], index: number): string[] {
  const siblings: string[] = []
  let level = sortedIds.map(leaf)
  let position = index
  while (level.length > 1) {
    const sibling = position % 2 === 0 ? position + 1 : position - 1
    if (sibling < level.length) siblings.push(bytesToHex(level[sibling]))
    level = nextLevel(level)
    position = Math.floor(position / 2)
  }
  return siblings
}

/** Whether an inclusion proof leads from the entry id to the root. */
export function verifyInclusion(proof: Omit<InclusionProof, 'entriesRoot'>, root: string): boolean {
  const { index, entryCount, siblings } = proof
  if (!Number.isInteger(index) || !Number.isInteger(entryCount) || index < 0) return false
  if (index >= entryCount || !Array.isArray(siblings) || !siblings.every((s) => isHex(s, 32))) {
    return false
  }
  let node = leaf(proof.entryId)
  let position = index
  let size = entryCount
  let used = 0
  while (size > 1) {
    const sibling = position % 2 === 0 ? position + 1 : position - 1
    if (sibling < size) {
      if (used >= siblings.length) return false
      const other = hexToBytes(siblings[used++])
      node = position % 2 === 0 ? parent(node, other) : parent(other, node)
    }
    position = Math.floor(position / 2)
    size = Math.ceil(size / 2)
  }
  return used === siblings.length && bytesToHex(node) === root
}

// ---------------------------------------------------------------------------------------------
// The beacon

/**
 * Whether a beacon is quicknet's round `expectedRound`: the chain, the round, randomness =
 * SHA-256(signature) and the BLS signature against quicknet's public key (drand-client, loaded
 * only when a signature is checked). Never throws: malformed input is simply not valid.
 */
export async function verifyBeacon(beacon: Beacon, expectedRound: number): Promise<boolean> {
  if (!beacon || beacon.chainHash !== QUICKNET.chainHash) return false
  if (!Number.isSafeInteger(beacon.round) || beacon.round !== expectedRound) return false
  if (!isHex(beacon.signature, 48) || !isHex(beacon.randomness, 32)) return false
  if (sha256Hex(hexToBytes(beacon.signature)) !== beacon.randomness) return false
  try {
    const { fetchBeacon } = await import('drand-client')
    const info = {
      public_key: QUICKNET.publicKey,
      period: QUICKNET.period,
      genesis_time: QUICKNET.genesisTime,
      hash: QUICKNET.chainHash,
      groupHash: QUICKNET.groupHash,
      schemeID: QUICKNET.schemeID,
      metadata: { beaconID: QUICKNET.beaconID },
    }
    const round = {
      round: beacon.round,
      randomness: beacon.randomness,
      signature: beacon.signature,
    }
    // The library's own path: a client whose "relay" is the beacon in hand, verification on.
    const client = {
      options: { disableBeaconVerification: false, noCache: true },
      chain: () => ({ baseUrl: 'beacon-in-hand', info: async () => info }),
      get: async () => round,
      latest: async () => round,
    }
    await fetchBeacon(client, expectedRound)
    return true
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Verifying a published draw

const pass = (name: CheckName, detail: string): Check => ({ name, status: 'pass', detail })
const fail = (name: CheckName, detail: string): Check => ({ name, status: 'fail', detail })
const pending = (name: CheckName, detail: string): Check => ({ name, status: 'pending', detail })

function checkCommitment(proof: DrawProof): Check {
  const commitment = proof.commitment
  if (!commitment)
    return pending('commitment', 'Entries have not opened: nothing is committed yet.')
  const { digest, ...record } = commitment
  if (sha256Hex(commitmentStatement(record)) !== digest) {
    return fail('commitment', 'The committed terms do not hash to the published digest.')
  }
  if (commitment.chainHash !== QUICKNET.chainHash || commitment.publicKey !== QUICKNET.publicKey) {
    return fail('commitment', "The commitment names a beacon other than drand's quicknet.")
  }
  if (commitment.round !== drawRound(commitment.entryClosesAt)) {
    return fail(
      'commitment',
      `Round ${commitment.round} is not the first quicknet round at least ${BEACON_DELAY_SECONDS} s after entries close.`
    )
  }
  if (commitment.productId !== proof.productId) {
    return fail('commitment', 'The commitment is for another product.')
  }
  const sameTime = (a: string | null, b: string) => a !== null && unixSeconds(a) === unixSeconds(b)
  if (
    proof.slots !== commitment.slots ||
    !sameTime(proof.entryOpensAt, commitment.entryOpensAt) ||
    !sameTime(proof.entryClosesAt, commitment.entryClosesAt)
  ) {
    return fail('commitment', 'The slots or the entry window differ from the commitment.')
  }
  return pass(
    'commitment',
    `Digest ${digest} fixes the seed's hash, ${commitment.slots} slot(s), the entry window and quicknet round ${commitment.round}.`
  )
}

function checkSeed(proof: DrawProof): Check {
  if (!proof.seed) return pending('seed', 'The seed is published once the draw has run.')
  if (!proof.commitment || sha256Hex(proof.seed) !== proof.commitment.seedHash) {
    return fail('seed', 'The published seed does not hash to the committed SHA-256.')
  }
  return pass('seed', 'The published seed hashes to the committed SHA-256.')
}

async function checkBeacon(proof: DrawProof): Promise<Check> {
  const beacon = proof.beacon
  if (!beacon?.signature || !beacon.randomness) {
    return pending('beacon', `Waiting for quicknet round ${proof.commitment?.round ?? '?'}.`)
  }
  if (!proof.commitment || beacon.round !== proof.commitment.round) {
    return fail('beacon', `Round ${beacon.round} is not the committed round.`)
  }
  if (beacon.chainHash !== proof.commitment.chainHash) {
    return fail('beacon', 'The beacon comes from another chain than the committed one.')
  }
  const valid = await verifyBeacon(beacon as Beacon, proof.commitment.round)
  return valid
    ? pass(
        'beacon',
        `Quicknet round ${beacon.round}: the BLS signature verifies and the randomness is its SHA-256.`
      )
    : fail(
        'beacon',
        `The signature of round ${beacon.round} does not verify against quicknet's public key.`
      )
}

function checkEntries(proof: DrawProof): Check {
  if (!proof.entriesRoot) return pending('entries', 'The entry list is frozen when entries close.')
  const ids = proof.entries
  for (let index = 1; index < ids.length; index++) {
    if (compareIds(ids[index - 1], ids[index]) >= 0) {
      return fail('entries', 'The entry ids are not in strictly ascending order.')
    }
  }
  if (ids.length !== proof.entryCount) {
    return fail('entries', `${ids.length} entry ids are published for ${proof.entryCount} entries.`)
  }
  if (merkleRoot(ids) !== proof.entriesRoot) {
    return fail('entries', 'The entry ids do not hash to the published Merkle root.')
  }
  return pass('entries', `${ids.length} entries hash to the root ${proof.entriesRoot}.`)
}

function checkWinners(proof: DrawProof): { check: Check; winners: string[]; alternates: string[] } {
  const none = { winners: [], alternates: [] }
  if (!proof.seed || !proof.beacon?.randomness || !proof.commitment) {
    return {
      check: pending('winners', 'The winners are drawn once the beacon round is out.'),
      ...none,
    }
  }
  return checkRanking(proof, proof.seed, proof.beacon.randomness, proof.commitment.slots)
}

function checkInclusion(proof: DrawProof, inclusion: InclusionProof): Check {
  if (!proof.entriesRoot)
    return pending('inclusion', 'The entry list is frozen when entries close.')
  if (inclusion.entriesRoot !== proof.entriesRoot || inclusion.entryCount !== proof.entryCount) {
    return fail('inclusion', 'The inclusion proof is for another entry list.')
  }
  if (!verifyInclusion(inclusion, proof.entriesRoot)) {
    return fail('inclusion', `Entry ${inclusion.entryId} does not lead to the published root.`)
  }
  if (proof.entries.length && proof.entries[inclusion.index] !== inclusion.entryId) {
    return fail('inclusion', `Entry ${inclusion.entryId} is not at its place in the list.`)
  }
  return pass(
    'inclusion',
    `Entry ${inclusion.entryId} is number ${inclusion.index + 1} of ${inclusion.entryCount} in the frozen list.`
  )
}

/**
 * Checks a published draw from its proof alone: the commitment, the seed against it, the
 * beacon's signature and round, the entries against their root, the winners against the rule,
 * and (given one) an entry's inclusion. `ok` when nothing failed; steps not reached yet are
 * `pending`.
 */
export async function verifyDraw(
  proof: DrawProof,
  options: { inclusion?: InclusionProof | null } = {}
): Promise<DrawVerification> {
  const checks: Check[] = [checkCommitment(proof), checkSeed(proof), await checkBeacon(proof)]
  checks.push(checkEntries(proof))
  const winners = checkWinners(proof)
  checks.push(winners.check)
  if (options.inclusion) checks.push(checkInclusion(proof, options.inclusion))
  return {
    ok: checks.every((check) => check.status !== 'fail'),
    checks,
    winners: winners.winners,
    alternates: winners.alternates,
  }
}

// ---------------------------------------------------------------------------------------------
// A waiting room's line, ordered the same way

/**
 * The line of a waiting room closes a minute before its sale opens; its places come from the
 * first quicknet round at least 60 s after that (out when the sale opens). The commitment, fixed
 * when the line forms, is the SHA-256 of `lineCommitmentStatement`; the members frozen at close
 * have a Merkle root as a draw's entries do; place = rank by `entryScore`, 1 first. Those who
 * join after the close are placed after the line, in the order they came.
 */
export type LineCommitment = {
  productId: number
  seedHash: string
  closesAt: string
  chainHash: string
  publicKey: string
  round: number
  digest: string
}

export type LineProof = {
  productId: number
  status: 'not_formed' | 'forming' | 'closed' | 'ordered'
  commitment: LineCommitment | null
  beacon: Beacon | { chainHash: string; round: number; randomness: null; signature: null } | null
  membersRoot: string | null
  /** Member ids of the line, ascending, once it has closed. */
  members: string[]
  memberCount: number
  seed: string | null
  /** Member ids in place order (place 1 first), once ordered. */
  order: string[]
}

export function lineCommitmentStatement(record: Omit<LineCommitment, 'digest'>): string {
  return [
    'dropslot-line-commitment-v1',
    `product:${record.productId}`,
    `seed-sha256:${record.seedHash}`,
    `line-close:${unixSeconds(record.closesAt)}`,
    `beacon-chain:${record.chainHash}`,
    `beacon-public-key:${record.publicKey}`,
    `beacon-round:${record.round}`,
  ].join('\n')
}

export function makeLineCommitment(input: {
  productId: number
  seed: string
  closesAt: Date | string
}): LineCommitment {
  const record = {
    productId: input.productId,
    seedHash: sha256Hex(input.seed),
    closesAt: new Date(unixSeconds(input.closesAt) * 1000).toISOString(),
    chainHash: QUICKNET.chainHash,
    publicKey: QUICKNET.publicKey,
    round: drawRound(input.closesAt),
  }
  return { ...record, digest: sha256Hex(lineCommitmentStatement(record)) }
}

/** Checks a published line: commitment, seed, beacon, members' root, and the places. */
export async function verifyLine(proof: LineProof): Promise<DrawVerification> {
  const checks: Check[] = []
  const commitment = proof.commitment
  if (!commitment) {
    checks.push(pending('commitment', 'The line has not formed yet.'))
  } else {
    const { digest, ...record } = commitment
    const ok =
      sha256Hex(lineCommitmentStatement(record)) === digest &&
      commitment.chainHash === QUICKNET.chainHash &&
      commitment.publicKey === QUICKNET.publicKey &&
      commitment.round === drawRound(commitment.closesAt) &&
      commitment.productId === proof.productId
    checks.push(
      ok
        ? pass(
            'commitment',
            `Digest ${digest} fixes the seed's hash, the close and quicknet round ${commitment.round}.`
          )
        : fail('commitment', 'The line commitment does not hold.')
    )
  }
  if (!proof.seed) checks.push(pending('seed', 'The seed is published once places are drawn.'))
  else if (!commitment || sha256Hex(proof.seed) !== commitment.seedHash) {
    checks.push(fail('seed', 'The published seed does not hash to the committed SHA-256.'))
  } else checks.push(pass('seed', 'The published seed hashes to the committed SHA-256.'))
  const beacon = proof.beacon
  if (!beacon?.signature || !beacon.randomness || !commitment) {
    checks.push(pending('beacon', `Waiting for quicknet round ${commitment?.round ?? '?'}.`))
  } else if (
    beacon.round !== commitment.round ||
    !(await verifyBeacon(beacon as Beacon, commitment.round))
  ) {
    checks.push(fail('beacon', `The beacon is not a valid quicknet round ${commitment.round}.`))
  } else {
    checks.push(pass('beacon', `Quicknet round ${beacon.round}: the BLS signature verifies.`))
  }
  if (!proof.membersRoot) {
    checks.push(pending('entries', 'The members are frozen when the line closes.'))
  } else {
    const sorted = proof.members.every(
      (id, i) => i === 0 || compareIds(proof.members[i - 1], id) < 0
    )
    const ok =
      sorted &&
      proof.members.length === proof.memberCount &&
      merkleRoot(proof.members) === proof.membersRoot
    checks.push(
      ok
        ? pass('entries', `${proof.members.length} members hash to the root ${proof.membersRoot}.`)
        : fail('entries', 'The members do not hash to the published root.')
    )
  }
  let order: string[] = []
  if (!proof.seed || !beacon?.randomness) {
    checks.push(pending('winners', 'Places are drawn once the beacon round is out.'))
  } else {
    order = rankEntries(proof.seed, beacon.randomness, proof.members).map((entry) => entry.entryId)
    const same =
      order.length === proof.order.length && order.every((id, i) => id === proof.order[i])
    checks.push(
      same
        ? pass('winners', `The ${order.length} places follow the rule.`)
        : fail('winners', 'The published places differ from the rule.')
    )
  }
  return {
    ok: checks.every((check) => check.status !== 'fail'),
    checks,
    winners: order,
    alternates: [],
  }
}
