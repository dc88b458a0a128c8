import type { Replacement } from '#shared/draw'

/** What the published replacements are made from: a ranked entry and its order. */
export type RankedEntryRow = {
  public_id: string
  rank: number | null
  result: string | null
  promoted_at: unknown
  replaced_at: unknown
  replaced_by: string | null
  status: string
  fail_reason: string | null
}

/**
 * Why a ranked entry dropped out, as published: never the order's own words (an admin's
 * cancellation note is theirs, not the public's).
 */
export function dropReason(failReason: string | null): string {
  if (failReason === 'hold_declined:authentication_required') return 'card_check_not_confirmed'
  if (failReason?.startsWith('hold_declined')) return 'card_check_declined'
  return 'withdrawn'
}

/**
 * The proof's replacements (shared/draw_ranking.ts): every winner (or promoted alternate) who
 * dropped out, with the alternate who took the place, in the order the places were taken (the
 * alternates' rank); and, before them, each alternate passed over because it had dropped out
 * first (its order ended for another reason than not being selected).
 */
export function replacementsOf(entries: RankedEntryRow[], notSelected: string): Replacement[] {
  const rankOf = new Map(entries.map((entry) => [entry.public_id, Number(entry.rank)]))
  const replaced = entries
    .filter((entry) => entry.replaced_at)
    .sort((a, b) => {
      const [x, y] = [a, b].map((entry) =>
        entry.replaced_by ? rankOf.get(entry.replaced_by)! : Number.MAX_SAFE_INTEGER
      )
      return x === y ? Number(a.rank) - Number(b.rank) : x - y
    })
  const lastTaken = Math.max(
    0,
    ...replaced.filter((entry) => entry.replaced_by).map((entry) => rankOf.get(entry.replaced_by!)!)
  )
  const unfilled = replaced.some((entry) => !entry.replaced_by)
  const passedOver = entries
    .filter(
      (entry) =>
        entry.result === 'alternate' &&
        !entry.promoted_at &&
        entry.status === 'cancelled' &&
        entry.fail_reason !== notSelected &&
        (unfilled || Number(entry.rank) < lastTaken)
    )
    .sort((a, b) => Number(a.rank) - Number(b.rank))
  return [
    ...passedOver.map((entry) => ({
      entryId: entry.public_id,
      reason: dropReason(entry.fail_reason),
      replacedBy: null,
    })),
    ...replaced.map((entry) => ({
      entryId: entry.public_id,
      reason: dropReason(entry.fail_reason),
      replacedBy: entry.replaced_by ?? null,
    })),
  ]
}
