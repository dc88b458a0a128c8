import type { Outcome } from '@shared/api/contract'
import { notSecuredWords } from '@shared/vocabulary'

export const percent = (rate: number | null) =>
  rate === null ? '–' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

const OUTCOME_WORDS: Record<Outcome, string> = {
  succeeded: 'Succeeded',
  failed: 'Not secured',
  cancelled_after_success: 'Cancelled by the retailer after success',
  not_submitted: 'Not submitted',
  open: 'Waiting',
}

const REASON_WORDS: Record<string, string> = {
  sold_out: 'sold out',
  declined: 'declined at the retailer',
  address: 'address rejected',
  other: 'other reason',
  not_selected: 'not selected in the draw',
}

/**
 * An order's line in the customer's words: a failed one as its buyer reads it on the orders page
 * (the server's `words`), nothing charged.
 */
export function outcomeWords(line: {
  outcome: Outcome
  reason: string | null
  words?: string | null
  mine?: boolean
}) {
  if (line.words) return line.words
  if (line.outcome === 'failed') {
    return notSecuredWords(line.reason, { whose: line.mine ? 'your' : 'the' })
  }
  const words = OUTCOME_WORDS[line.outcome]
  return line.reason ? `${words} (${REASON_WORDS[line.reason] ?? line.reason})` : words
}

export const releaseDate = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
    : '–'
