/** GET /api/releases/:productId/report (app/release/services/release_report.ts). */
export type Outcome = 'succeeded' | 'failed' | 'cancelled_after_success' | 'not_submitted' | 'open'

type Failed = { total: number; soldOut: number; declined: number; address: number; other: number }

export type Figures = {
  orders: number
  submitted: number
  succeeded: number
  failed: Failed
  cancelledAfterSuccess: number
  successRate: number | null
}

export type ReleaseReport = Figures & {
  product: {
    id: number
    title: string
    image: string
    releaseAt: string | null
    releaseMode: 'first-come' | 'draw'
    retailer: string
  }
  settled: boolean
  slots: number
  draw: { entries: number; selected: number } | null
  notSubmitted: number
  bySize: (Figures & { size: string })[]
  fees: { chargedCents: number; refundedCents: number; netCents: number; dueCents: number }
  checks: { name: string; ok: boolean; detail: string }[]
  lines: { size: string; outcome: Outcome; reason: string | null; mine: boolean }[]
  generatedAt: string
}

/** GET /api/releases */
export type ReleasesOverview = {
  windowDays: number
  releases: {
    productId: number
    title: string
    image: string
    releaseAt: string | null
    releaseMode: string
    retailer: string
    orders: number
    submitted: number
    succeeded: number
    successRate: number | null
  }[]
  retailers: {
    retailer: string
    releases: number
    submitted: number
    succeeded: number
    successRate: number | null
  }[]
  generatedAt: string
}
