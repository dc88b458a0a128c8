import { createHash, createHmac } from 'node:crypto'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import type { AcoEntry } from '#profiles/services/bot_export_formats'
import { releaseConfig, type EngineName } from '#release/services/release_config'
import type { TaskPlan, TaskRetailer } from '#release/services/task_plan'
import { taskIds } from '#release/services/task_ids'

/** What a checkout engine is asked to do for one order on release day. */
export type CheckoutTask = {
  /** `task-{orderId}-{round}` (`taskIds`): new for each round, so a retried order is a new task. */
  taskId: string
  orderId: string
  /** The order's round: 1, then 2... after each retry of the failed order. */
  round: number
  productId: number
  productTitle: string
  style: string
  size: string
  /** The sizes to try, in order (the first is `size`), the retailer and the buyer's cap. */
  sizes: TaskPlan['sizes']
  /** The retailer of this task; null for a product that names none. */
  retailer: TaskRetailer | null
  /** Which of the order's tasks this is (1 for the first retailer tried, or the only task). */
  tryNumber: number
  maxItemPriceCents: TaskPlan['maxItemPriceCents']
  /** The decrypted profile + order a bot needs (only for engines that hand tasks to a bot). */
  aco: AcoEntry | null
}

export type EngineResult =
  /** `size`: the size of the ladder bought (the first when the engine does not say). */
  | { status: 'success'; confirmationNumber: string; size?: string }
  | { status: 'fail'; reason: string }
  /** Handed to a bot: the result comes back later (callback or results file). */
  | { status: 'submitted' }

export interface CheckoutEngine {
  name: EngineName
  /** True when the engine hands the card data to a bot (the run audits each reveal). */
  needsCardData: boolean
  submit(task: CheckoutTask): Promise<EngineResult>
  /** Withdraws a task another retailer's success made needless (engines that hold tasks). */
  cancel?(task: TaskCancel): Promise<void>
}

/** A task withdrawn: the bot stops trying it (`type: 'cancel'` on the webhook). */
export type TaskCancel = { taskId: string; orderId: string; retailer: string }

export class EngineError extends Error {
  constructor(
    message: string,
    /** The engine could not be reached (network, timeout, 5xx): the run's breaker counts these. */
    public unreachable = false
  ) {
    super(message)
  }
}

/** What went wrong with one delivery, in an operator's words: the system's code, not a class. */
function deliveryFailure(error: unknown, timeoutMs: number): string {
  const failure = error as { name?: string; cause?: { code?: string; message?: string } }
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') {
    return `no answer within ${timeoutMs} ms`
  }
  return failure?.cause?.code ?? failure?.cause?.message ?? failure?.name ?? 'network error'
}

/**
 * Local engine for demos and tests: deterministic per order and seed (a hash of both decides),
 * so a re-run after a crash gets the same answer and tests can predict outcomes.
 */
export class SimulatorEngine implements CheckoutEngine {
  name = 'simulator' as const
  needsCardData = false

  constructor(private options = releaseConfig().simulator) {}

  /**
   * The answer for an order's task: `key` is the order id for its first try (so an order tried
   * at one retailer answers as before retailers were listed), `{orderId}:{retailer}` after.
   */
  static outcome(
    key: string,
    successRate: number,
    seed: string,
    sizes: readonly string[] = []
  ): EngineResult {
    const digest = createHash('sha256').update(`${seed}:${key}`).digest()
    const roll = digest.readUInt32BE(0) / 0x1_0000_0000
    if (roll < successRate) {
      const number = (digest.readUInt32BE(4) % 1_000_000_000).toString().padStart(9, '0')
      const size = sizes.length ? sizes[digest[9] % sizes.length] : undefined
      return { status: 'success', confirmationNumber: `SIM-${number}`, ...(size ? { size } : {}) }
    }
    const reasons = ['Sold out before checkout.', 'Retailer queue timed out.', 'Size unavailable.']
    return { status: 'fail', reason: reasons[digest[8] % reasons.length] }
  }

  async submit(task: CheckoutTask): Promise<EngineResult> {
    if (this.options.delayMs > 0) await sleep(this.options.delayMs)
    const key =
      task.tryNumber > 1 && task.retailer
        ? `${task.orderId}:${task.retailer.retailer}`
        : task.orderId
    return SimulatorEngine.outcome(key, this.options.successRate, this.options.seed, task.sizes)
  }
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the signature of both directions,
 * each with its own secret (tasks out: CHECKOUT_TASK_SECRET; results in: CHECKOUT_RESULTS_SECRET).
 */
export function signPayload(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000)
) {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `t=${timestamp},v1=${digest}`
}

/**
 * POSTs each task (JSON, HMAC-signed in X-Dropslot-Signature) to the bot's endpoint; retries with
 * exponential back-off on network errors, timeouts, 429 and 5xx; refuses at once on other 4xx.
 * The bot answers later through POST /api/hooks/checkout-results.
 */
export type WebhookEngineOptions = {
  url: string
  /** Signs every task (CHECKOUT_TASK_SECRET); never the secret results are verified with. */
  taskSecret: string
  attempts: number
  backoffMs: number
  timeoutMs: number
  usesDeprecatedSecret?: boolean
}

let deprecationLogged = false

/** Logged once per process: CHECKOUT_WEBHOOK_SECRET signs and verifies both directions. */
export function noteDeprecatedSecret(usesDeprecatedSecret: boolean | undefined) {
  if (!usesDeprecatedSecret || deprecationLogged) return
  deprecationLogged = true
  logger.warn(
    'CHECKOUT_WEBHOOK_SECRET is deprecated: set CHECKOUT_TASK_SECRET and CHECKOUT_RESULTS_SECRET (production refuses the single secret)'
  )
}

export class WebhookEngine implements CheckoutEngine {
  name = 'webhook' as const
  needsCardData = true

  constructor(private options: WebhookEngineOptions = releaseConfig().webhook) {
    if (!options.url || !options.taskSecret) {
      throw new EngineError(
        'The webhook engine needs CHECKOUT_WEBHOOK_URL and CHECKOUT_TASK_SECRET.'
      )
    }
    noteDeprecatedSecret(options.usesDeprecatedSecret)
  }

  async submit(task: CheckoutTask): Promise<EngineResult> {
    await this.deliver(task.taskId, JSON.stringify(task))
    return { status: 'submitted' }
  }

  /** The signed `{type: 'cancel', taskId, orderId, retailer}`, with the task's own retries. */
  async cancel(task: TaskCancel) {
    const body = JSON.stringify({ type: 'cancel', ...task })
    await this.deliver(`cancel-${task.taskId}`, body)
  }

  private async deliver(idempotencyKey: string, body: string): Promise<void> {
    let lastError = ''
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      if (attempt > 1) await sleep(this.options.backoffMs * 2 ** (attempt - 2))
      try {
        const response = await fetch(this.options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-dropslot-signature': signPayload(this.options.taskSecret, body),
            'idempotency-key': idempotencyKey,
          },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        })
        await response.arrayBuffer().catch(() => null)
        if (response.ok) return
        lastError = `HTTP ${response.status}`
        if (response.status < 500 && response.status !== 429) {
          throw new EngineError(`The checkout bot refused ${idempotencyKey}: ${lastError}.`)
        }
      } catch (error) {
        if (error instanceof EngineError) throw error
        lastError = deliveryFailure(error, this.options.timeoutMs)
      }
    }
    const { url, attempts } = this.options
    throw new EngineError(
      `checkout engine unreachable at ${url}: ${lastError} after ${attempts} tries`,
      true
    )
  }
}

/**
 * Writes one JSON task file per order for a bot that reads a folder (written to a temporary name
 * and renamed, so the bot never reads half a file; mode 0600: it holds card data). Results come
 * back through `dropslot orders:import-results FILE`.
 */
export class FilesEngine implements CheckoutEngine {
  name = 'files' as const
  needsCardData = true

  constructor(private directory = releaseConfig().filesDir) {}

  get path() {
    return isAbsolute(this.directory) ? this.directory : app.makePath(this.directory)
  }

  /** `{orderId}.json`, or `{orderId}-{retailer}.json` for each retailer an order is tried at. */
  static fileName(orderId: string, retailer: string | null) {
    return retailer ? `${orderId}-${retailer}.json` : `${orderId}.json`
  }

  async submit(task: CheckoutTask): Promise<EngineResult> {
    await mkdir(this.path, { recursive: true, mode: 0o700 })
    // Named as its task id is: by retailer only for an order tried at several.
    const retailer = taskIds.parse(task.taskId)?.retailer ?? null
    const target = join(this.path, FilesEngine.fileName(task.orderId, retailer))
    await writeFile(`${target}.tmp`, `${JSON.stringify(task, null, 2)}\n`, { mode: 0o600 })
    await rename(`${target}.tmp`, target)
    return { status: 'submitted' }
  }

  /** A task withdrawn before the bot read it: its file is removed (the card data with it). */
  async cancel(task: TaskCancel) {
    const target = join(this.path, FilesEngine.fileName(task.orderId, task.retailer))
    await rm(target, { force: true })
    await rm(`${target}.tmp`, { force: true })
  }
}

/**
 * Deletes an order's task file once its result is in: the file holds the card number and CVV
 * for the bot, which needs it no longer. A file already gone is fine.
 */
export async function removeTaskFile(orderPublicId: string, directory = releaseConfig().filesDir) {
  const engine = new FilesEngine(directory)
  const names = await readdir(engine.path).catch(() => [] as string[])
  const own = names.filter(
    (name) => name.startsWith(`${orderPublicId}.json`) || name.startsWith(`${orderPublicId}-`)
  )
  for (const name of own) await rm(join(engine.path, name), { force: true })
}

export function createEngine(name: EngineName = releaseConfig().engine): CheckoutEngine {
  switch (name) {
    case 'simulator':
      return new SimulatorEngine()
    case 'webhook':
      return new WebhookEngine()
    case 'files':
      return new FilesEngine()
    default:
      throw new EngineError(`Unknown checkout engine "${name}".`)
  }
}
