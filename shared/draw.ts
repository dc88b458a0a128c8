/*
| How a draw picks its winners, written once for the server, the `draw:verify` command and the
| storefront's proof page, so anyone can recompute a result from the published data alone:
|
|   score(entry) = HMAC-SHA256(key = the seed as published (hex text, UTF-8),
|                              message = the entry id (UTF-8)), as lower-case hex
|   winners      = the `slots` entries with the lowest scores (every entry when there are fewer)
|
| The seed is secret until the draw has run; its SHA-256 (the commitment) is published when entries
| open, so the seed cannot be chosen after seeing the entries. The HMAC comes from the caller
| (node:crypto on the server, WebCrypto in a browser); nothing here imports anything.
*/

/** What anyone may see of a draw (`GET /api/products/:id/draw`). */
export type DrawProof = {
  productId: number
  slots: number
  commitment: string | null
  drawnAt: string | null
  /** Published once the draw has run. */
  seed: string | null
  /** Every entry id in the draw (no personal data), sorted; once the draw has run. */
  entries: string[]
  /** The winning entry ids in rank order; once the draw has run. */
  winners: string[]
  entryCount: number
}

export type HmacHex = (key: string, message: string) => Promise<string> | string

export type RankedEntry = { entryId: string; score: string; rank: number }

/** Every entry with its score, best (lowest) first; ties, vanishingly unlikely, by entry id. */
export async function rankEntries(
  seed: string,
  entryIds: readonly string[],
  hmacHex: HmacHex
): Promise<RankedEntry[]> {
  const scored = await Promise.all(
    entryIds.map(async (entryId) => ({ entryId, score: await hmacHex(seed, entryId) }))
  )
  scored.sort((a, b) =>
    a.score === b.score ? compare(a.entryId, b.entryId) : compare(a.score, b.score)
  )
  return scored.map((entry, index) => ({ ...entry, rank: index + 1 }))
}

/** The winning entry ids, in rank order. */
export async function drawWinners(
  seed: string,
  entryIds: readonly string[],
  slots: number,
  hmacHex: HmacHex
): Promise<string[]> {
  const ranked = await rankEntries(seed, entryIds, hmacHex)
  return ranked.slice(0, Math.max(0, slots)).map((entry) => entry.entryId)
}

export type DrawCheck = { commitmentMatches: boolean; winnersMatch: boolean; winners: string[] }

/**
 * Recomputes a published draw from its proof alone: the seed must hash to the commitment made
 * before the entries, and the winners must be the ones the rule gives. `sha256Hex` and `hmacHex`
 * come from the caller (node:crypto or WebCrypto).
 */
export async function verifyDraw(
  proof: Pick<DrawProof, 'seed' | 'commitment' | 'entries' | 'slots' | 'winners'> & {
    seed: string
  },
  sha256Hex: (text: string) => Promise<string> | string,
  hmacHex: HmacHex
): Promise<DrawCheck> {
  const winners = await drawWinners(proof.seed, proof.entries, proof.slots, hmacHex)
  return {
    commitmentMatches: (await sha256Hex(proof.seed)) === proof.commitment,
    winnersMatch:
      winners.length === proof.winners.length &&
      winners.every((entryId, index) => entryId === proof.winners[index]),
    winners,
  }
}

function compare(a: string, b: string) {
  return a < b ? -1 : a > b ? 1 : 0
}
