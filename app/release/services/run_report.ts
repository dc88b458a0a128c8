import type { ProductRecord } from '#catalog/services/product_queries'
import type { CheckoutEngine } from '#release/services/checkout_engines'
import type { EngineName } from '#release/services/release_config'

export type RunOptions = {
  productId?: number | null
  dryRun?: boolean
  trigger?: string
  /** An engine name, or an engine instance (tests, embedding). */
  engine?: EngineName | CheckoutEngine
  /** Called once the work is known, then after each item (progress bars). */
  onPlan?: (total: number) => void
  onItem?: () => void
}

export type RunReport = {
  runId: number | null
  status: 'finished' | 'failed' | 'skipped'
  engine: EngineName
  dryRun: boolean
  products: { id: number; title: string; releaseAt: string | null }[]
  /** Orders handed to the engine by this run (new ones and ones a crashed run left behind). */
  submitted: number
  succeeded: number
  failed: number
  /** Handed to a bot; the result comes back later. */
  awaitingResult: number
  /** Could not be handed to the engine (it stays processing and is retried next run). */
  submitErrors: number
  /** Results recorded earlier whose money or e-mail a crash or an outage left unfinished. */
  resumed: number
  feesCharged: number
  feesDue: number
  feeRetries: number
  /** Results known whose money and e-mail were handed to the gateway queue (workers). */
  settling: number
  /** Pending orders whose $1.00 card check is not placed yet (submitted by a later run). */
  awaitingHold: number
  /** Dry run: what a real run would do. */
  plan?: {
    readyToSubmit: number
    toResume: number
    toFinish: number
    feeRetries: number
    /** Orders every retailer sold out for, whose restock window has closed. */
    windowClosed: number
  }
  lockedBy?: string
  error?: string
}

/** A run's report before any work: nothing counted yet. */
export function emptyRunReport(
  engine: EngineName,
  dryRun: boolean,
  products: ProductRecord[]
): RunReport {
  return {
    runId: null,
    status: 'finished',
    engine,
    dryRun,
    products: products.map((product) => ({
      id: product.id,
      title: product.title,
      releaseAt: product.releaseAt?.toISO() ?? null,
    })),
    submitted: 0,
    succeeded: 0,
    failed: 0,
    awaitingResult: 0,
    submitErrors: 0,
    resumed: 0,
    feesCharged: 0,
    feesDue: 0,
    feeRetries: 0,
    settling: 0,
    awaitingHold: 0,
  }
}
