/*
| A draw's ranking and what may happen to it afterwards (shared/draw.ts has the rest of the rule).
|
| Every entry of the list frozen at the close is ranked: score = HMAC-SHA256(key = the seed as hex
| text, message = randomness hex + ":" + entry id), lowest first (ties, never seen, by entry id).
| The first `slots` win and the rest are the ranked alternates. Nothing decided once the
| randomness is known takes an entry out of that ranking.
|
| A winner who drops out afterwards (card check declined or not confirmed, withdrawn) keeps their
| rank; their place goes to the best-ranked alternate still in, and the proof lists each such
| replacement with its reason, in the order they happened. An alternate who dropped out before
| their turn is listed too, with their reason and no one in their place, so anyone can see why
| they were passed over.
*/
import { sha256 } from '@noble/hashes/sha256'
import { hmac } from '@noble/hashes/hmac'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import type { Check, DrawProof } from './draw.js'

/** Ascending by code unit, the order every party sorts entry ids in. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** An entry's score: HMAC-SHA256(key = seed hex text, message = randomness + ":" + entry id). */
export function entryScore(seed: string, randomness: string, entryId: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(seed), utf8ToBytes(`${randomness}:${entryId}`)))
}

export type RankedEntry = { entryId: string; score: string; rank: number }

/** Entries best (lowest score) first, with their rank from 1. */
export function rankEntries(
  seed: string,
  randomness: string,
  entryIds: readonly string[]
): RankedEntry[] {
  const scored = entryIds.map((entryId) => ({
    entryId,
    score: entryScore(seed, randomness, entryId),
  }))
  scored.sort((a, b) =>
    a.score === b.score ? compareIds(a.entryId, b.entryId) : compareIds(a.score, b.score)
  )
  return scored.map((entry, index) => ({ ...entry, rank: index + 1 }))
}

/** Winners (the first `slots` frozen entries by rank) and the ranked alternates after them. */
export function drawResult(
  seed: string,
  randomness: string,
  frozenIds: readonly string[],
  slots: number
): { winners: string[]; alternates: string[] } {
  const ranked = rankEntries(seed, randomness, frozenIds).map((entry) => entry.entryId)
  const cut = Math.max(0, Math.min(slots, ranked.length))
  return { winners: ranked.slice(0, cut), alternates: ranked.slice(cut) }
}

/** A ranked entry that dropped out after the draw, and the alternate who took its place. */
export type Replacement = { entryId: string; reason: string; replacedBy: string | null }

/** The published reasons, in plain words. */
export const DROP_REASONS: Record<string, string> = {
  card_check_declined: 'card check declined',
  card_check_not_confirmed: 'card check not confirmed by the cardholder',
  withdrawn: 'withdrawn',
}

const words = (reason: string) => DROP_REASONS[reason] ?? reason
const pass = (detail: string): Check => ({ name: 'winners', status: 'pass', detail })
const fail = (detail: string): Check => ({ name: 'winners', status: 'fail', detail })
const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i])

/** Whether the published ranking is the rule's over the whole frozen list; why not, in words. */
function rankingFault(proof: DrawProof, result: { winners: string[]; alternates: string[] }) {
  const frozen = new Set(proof.entries)
  const ranked = [...proof.winners, ...proof.alternates]
  const stranger = ranked.find((id) => !frozen.has(id))
  if (stranger) return `Entry ${stranger} is ranked but is not in the frozen list.`
  if (new Set(ranked).size !== ranked.length) return 'An entry is ranked more than once.'
  const expected = [...result.winners, ...result.alternates]
  const rankedSet = new Set(ranked)
  const missing = expected.filter((id) => !rankedSet.has(id))
  if (missing.length) {
    const rank = expected.indexOf(missing[0]) + 1
    const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''
    return (
      `Entry ${missing[0]}, ranked ${rank} by the rule, is missing from the ranking${more}: ` +
      'every entry frozen at the close is ranked, and nothing decided after the randomness is ' +
      'known may take one out.'
    )
  }
  if (!same(result.winners, proof.winners) || !same(result.alternates, proof.alternates)) {
    return 'The published winners and alternates are not in the order the rule gives.'
  }
  return null
}

/** Whether the replacements follow the alternates rule; why not, in words. */
function replacementFault(proof: DrawProof, replacements: readonly Replacement[]) {
  const winners = new Set(proof.winners)
  const alternates = new Set(proof.alternates)
  const promoted = new Set<string>()
  const listed = new Set<string>()
  for (const record of replacements) {
    const { entryId, reason, replacedBy } = record ?? ({} as Replacement)
    if (!winners.has(entryId) && !alternates.has(entryId)) {
      return `Replaced entry ${entryId} is not in the ranking.`
    }
    if (listed.has(entryId)) return `Entry ${entryId} is listed as dropping out twice.`
    listed.add(entryId)
    if (typeof reason !== 'string' || reason.trim() === '') {
      return `Entry ${entryId} dropped out with no reason given.`
    }
    if (replacedBy === null || replacedBy === undefined) continue
    if (!alternates.has(replacedBy) || promoted.has(replacedBy)) {
      return `Entry ${replacedBy} cannot take ${entryId}'s place: only an alternate, once, can.`
    }
    if (!winners.has(entryId) && !promoted.has(entryId)) {
      return `Entry ${entryId} held no winner's place for ${replacedBy} to take.`
    }
    promoted.add(replacedBy)
  }
  // Passed over: alternates who dropped out without ever taking a place.
  const inTurn = proof.alternates.filter((id) => promoted.has(id) || !listed.has(id))
  const order = replacements.map((record) => record.replacedBy).filter(Boolean) as string[]
  for (const [index, replacedBy] of order.entries()) {
    if (inTurn[index] !== replacedBy) {
      return `Entry ${replacedBy} took a winner's place ahead of alternate ${inTurn[index]}, who is better ranked and has no reason listed to be passed over.`
    }
  }
  const left = inTurn.length > order.length ? inTurn[order.length] : null
  const unfilled = replacements.find(
    (record) => !record.replacedBy && (winners.has(record.entryId) || promoted.has(record.entryId))
  )
  if (unfilled && left) {
    return `Entry ${unfilled.entryId} dropped out and was not replaced, although alternate ${left} was next.`
  }
  return null
}

/**
 * The result step of verifying a published draw: the winners and alternates are the rule's
 * ranking of every frozen entry (none missing, none added), and each replacement since follows
 * the alternates rule with its reason.
 */
export function checkRanking(
  proof: DrawProof,
  seed: string,
  randomness: string,
  slots: number
): { check: Check; winners: string[]; alternates: string[] } {
  const result = drawResult(seed, randomness, proof.entries, slots)
  const ranking = rankingFault(proof, result)
  if (ranking) return { check: fail(ranking), ...result }
  const replacements = Array.isArray(proof.replacements) ? proof.replacements : []
  const replacing = replacementFault(proof, replacements)
  if (replacing) return { check: fail(replacing), ...result }
  const replaced = replacements
    .filter((record) => record.replacedBy || heldPlaces(proof, replacements).has(record.entryId))
    .map(
      (record) =>
        `${record.entryId} (${words(record.reason)}) ${record.replacedBy ? `replaced by ${record.replacedBy}` : 'not replaced: no alternate left'}`
    )
  const passedOver = replacements.length - replaced.length
  return {
    check: pass(
      `${result.winners.length} winner(s) and ${result.alternates.length} alternate(s) follow ` +
        `the rule over all ${proof.entries.length} frozen entries` +
        (replaced.length ? `; since the draw: ${replaced.join('; ')}` : '') +
        (passedOver ? `; ${passedOver} alternate(s) passed over, each with its reason` : '') +
        '.'
    ),
    ...result,
  }
}

/** Who held a winner's place at some point: the winners and the alternates promoted. */
function heldPlaces(proof: DrawProof, replacements: readonly Replacement[]) {
  const held = new Set(proof.winners)
  for (const record of replacements) if (record.replacedBy) held.add(record.replacedBy)
  return held
}
