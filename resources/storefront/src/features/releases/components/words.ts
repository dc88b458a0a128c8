import type { Outcome } from '@shared/api/contract'

export const percent = (rate: number | null) =>
  rate === null ? '–' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

const OUTCOME_WORDS: Record<Outcome, string> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
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

/** An order's line in the customer's words. */
export function outcomeWords(outcome: Outcome, reason: string | null) {
  const words = OUTCOME_WORDS[outcome]
  return reason ? `${words} (${REASON_WORDS[reason] ?? reason})` : words
}

export const releaseDate = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
    : '–'
