import type { Command } from 'commander'
import type { AdminOrdersService } from '#admin/services/admin_orders_service'
import { orderStatusLabel } from '#shared/vocabulary'
import { bootApp } from '../app.js'
import { cliActor } from '../actor.js'
import { CommandFailed, printResult, printTable, progressBar, UsageError } from '../output.js'

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

const FAILURE_CODES = ['sold_out', 'declined', 'address', 'other']

/** The why of a money tool: required, it goes to the audit log and the order's timeline. */
function reasonOf(reason: string | undefined) {
  const text = reason?.trim() ?? ''
  if (text.length < 3) throw new UsageError('--reason is required (at least 3 characters)')
  if (text.length > 255) throw new UsageError('--reason is at most 255 characters')
  return text
}

/** How every command names the order it takes. */
export const ORDER_ARGUMENT = 'order: its DS- number or its id'

function orderLine(order: {
  id: string
  orderNumber: string
  status: string
  feeStatus: string
  refundedCents?: number
}) {
  const label = orderStatusLabel(order.status, {
    status: order.feeStatus,
    refundedCents: order.refundedCents ?? 0,
  })
  const status = order.status === 'fail' ? `fail (${label})` : order.status
  const refunded = order.refundedCents ? `, refunded ${dollars(order.refundedCents)}` : ''
  return `Order ${order.orderNumber} (${order.id}): ${status}, fee ${order.feeStatus}${refunded}`
}

export function registerOrderCommands(program: Command) {
  program
    .command('orders:show')
    .description(
      'One order: its customer, product, status, money (hold, fee, refunds and the payment ' +
        'ledger) and its timeline'
    )
    .argument('<order>', ORDER_ARGUMENT)
    .action(async (reference: string) => {
      await bootApp()
      const { adminOrders } = await import('#admin/services/admin_orders_service')
      const order = await adminOrders.show(reference)
      printResult(program.opts(), { success: true, order: shown(order) }, showLines(order))
    })

  program
    .command('orders:import-results')
    .description(
      "Apply a checkout bot's results file (CSV or JSON: taskId or orderId, status, confirmation, reason, and for a success the size bought and totalCents); " +
        'only orders submitted to the files engine in a release run are taken'
    )
    .argument('<file>', 'results file (.csv or .json)')
    .option('--dry-run', 'print what each row would do (customer, outcome, fee); change nothing')
    .action(async (file: string, options: { dryRun?: boolean }) => {
      await bootApp()
      const actor = await cliActor(program, 'mark')
      const { importResults, readRows, ImportFileError } =
        await import('#release/services/import_files')
      let result
      try {
        const rows = await readRows(file, 'results')
        const bar = progressBar(program.opts(), rows.length, 'Results')
        result = await importResults(file, {
          actor,
          dryRun: options.dryRun,
          onItem: () => bar.increment(),
        })
        bar.stop()
      } catch (error) {
        if (error instanceof ImportFileError) throw new UsageError(error.message)
        throw error
      }
      const refused = result.errors.map((item) => `row ${item.row}: ${item.error}`)
      const lines = options.dryRun
        ? [
            `Dry run: ${result.plan.length} of ${result.total} result(s) would be applied; nothing was changed`,
            ...result.plan.map(
              (item) =>
                `row ${item.row}: ${item.orderId} ${item.customer} -> ${item.outcome}` +
                (item.repeat ? ' (already so, no change)' : '') +
                `, fee ${dollars(item.feeCents)}`
            ),
            ...refused,
            `Fees that would be charged: ${dollars(result.plan.reduce((sum, item) => sum + item.feeCents, 0))}`,
          ]
        : [`Applied ${result.applied.length} of ${result.total} result(s)`, ...refused]
      if (result.errors.length && !options.dryRun) {
        if (!program.opts().json) printResult(program.opts(), result, lines)
        throw new CommandFailed(`${result.errors.length} row(s) were not applied`, result)
      }
      printResult(program.opts(), { success: true, ...result }, lines)
    })

  program
    .command('orders:mark')
    .description(
      'Record the result of one order by hand (released products, pending or processing orders; ' +
        'a success needs --confirmation or --reason and charges the fee; e-mails the customer)'
    )
    .argument('<order>', ORDER_ARGUMENT)
    .argument('<result>', 'success | fail')
    .option('--confirmation <number>', "the retailer's confirmation number (success)")
    .option('--reason <text>', 'why it failed (fail), or why a success has no confirmation number')
    .option('--code <code>', `what the customer is told (fail): ${FAILURE_CODES.join(', ')}`)
    .action(
      async (
        orderId: string,
        outcome: string,
        options: { confirmation?: string; reason?: string; code?: string }
      ) => {
        if (outcome !== 'success' && outcome !== 'fail') {
          throw new UsageError('result must be success or fail')
        }
        if (options.code && !FAILURE_CODES.includes(options.code)) {
          throw new UsageError(`--code must be one of ${FAILURE_CODES.join(', ')}`)
        }
        await bootApp()
        const actor = await cliActor(program, 'mark')
        const { adminOrderActions } = await import('#admin/services/admin_order_actions_service')
        const order = await adminOrderActions.mark(
          orderId,
          {
            status: outcome,
            confirmationNumber: options.confirmation ?? null,
            reason: options.reason ?? null,
            reasonCode: options.code ?? null,
          },
          { actor, ip: null },
          'cli'
        )
        printResult(
          program.opts(),
          {
            success: true,
            orderId: order.id,
            orderNumber: order.orderNumber,
            status: order.status,
            feeStatus: order.feeStatus,
            holdStatus: order.hold.status,
            confirmationNumber: order.confirmationNumber,
          },
          [`${orderLine(order)}, hold ${order.hold.status}`]
        )
      }
    )

  program
    .command('orders:refund')
    .description('Refund the service fee of an order (all that is left, or --amount of it)')
    .argument('<order>', ORDER_ARGUMENT)
    .option('--amount <dollars>', 'a partial refund, e.g. 5.00')
    .option('--reason <text>', 'why (required; audited)')
    .action(async (orderId: string, options: { amount?: string; reason?: string }) => {
      const reason = reasonOf(options.reason)
      let amountCents: number | null = null
      if (options.amount !== undefined) {
        if (!/^\d+(\.\d{1,2})?$/.test(options.amount) || Number(options.amount) <= 0) {
          throw new UsageError('--amount must be dollars, e.g. 5 or 5.50')
        }
        amountCents = Math.round(Number(options.amount) * 100)
      }
      await bootApp()
      const actor = await cliActor(program, 'money')
      const { adminOrderActions } = await import('#admin/services/admin_order_actions_service')
      const order = await adminOrderActions.refundFee(
        orderId,
        { amountCents, reason },
        { actor, ip: null },
        'cli'
      )
      printResult(program.opts(), { success: true, order: summary(order) }, [orderLine(order)])
    })

  program
    .command('orders:waive-fee')
    .description('Waive a service fee that is due (its charge was declined); never tried again')
    .argument('<order>', ORDER_ARGUMENT)
    .option('--reason <text>', 'why (required; audited)')
    .action(async (orderId: string, options: { reason?: string }) => {
      const reason = reasonOf(options.reason)
      await bootApp()
      const actor = await cliActor(program, 'money')
      const { adminOrderActions } = await import('#admin/services/admin_order_actions_service')
      const order = await adminOrderActions.waiveFee(
        orderId,
        { reason },
        { actor, ip: null },
        'cli'
      )
      printResult(program.opts(), { success: true, order: summary(order) }, [orderLine(order)])
    })

  program
    .command('orders:retry')
    .description(
      'Try a failed order again while its release is open (back to pending: slot taken again, ' +
        'new $1.00 hold, submitted by the next run; refused when sold out)'
    )
    .argument('<order>', ORDER_ARGUMENT)
    .option('--reason <text>', 'why (required; audited)')
    .action(async (orderId: string, options: { reason?: string }) => {
      const reason = reasonOf(options.reason)
      await bootApp()
      const actor = await cliActor(program, 'money')
      const { adminOrderActions } = await import('#admin/services/admin_order_actions_service')
      const order = await adminOrderActions.retry(orderId, { reason }, { actor, ip: null }, 'cli')
      printResult(program.opts(), { success: true, order: summary(order) }, [orderLine(order)])
    })

  program
    .command('orders:correct')
    .description('Correct a successful order to failed (the fee is refunded, the customer told)')
    .argument('<order>', ORDER_ARGUMENT)
    .option('--reason <text>', 'what happened (required; kept for admins, audited)')
    .option('--code <code>', `what the customer is told: ${FAILURE_CODES.join(', ')}`)
    .action(async (orderId: string, options: { reason?: string; code?: string }) => {
      const reason = reasonOf(options.reason)
      if (options.code && !FAILURE_CODES.includes(options.code)) {
        throw new UsageError(`--code must be one of ${FAILURE_CODES.join(', ')}`)
      }
      await bootApp()
      const actor = await cliActor(program, 'money')
      const { adminOrderActions } = await import('#admin/services/admin_order_actions_service')
      const order = await adminOrderActions.correctToFail(
        orderId,
        { reason, reasonCode: options.code ?? null },
        { actor, ip: null },
        'cli'
      )
      printResult(program.opts(), { success: true, order: summary(order) }, [orderLine(order)])
    })
}

function summary(order: {
  id: string
  orderNumber: string
  status: string
  feeStatus: string
  hold: { status: string }
  refundedCents?: number
}) {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    feeStatus: order.feeStatus,
    holdStatus: order.hold.status,
    refundedCents: order.refundedCents ?? 0,
  }
}

type ShownOrder = Awaited<ReturnType<AdminOrdersService['show']>>

/** `orders:show --json`: what support reads of an order; no card data, no e-mail bodies. */
function shown(order: ShownOrder) {
  return {
    orderNumber: order.orderNumber,
    id: order.id,
    email: order.email,
    name: order.name,
    customerId: order.customerId,
    product: { id: order.productId, title: order.productTitle },
    size: order.size,
    style: order.style,
    status: order.status,
    statusLabel: order.statusLabel,
    confirmationNumber: order.confirmationNumber,
    failReason: order.failReason,
    failCode: order.failCode,
    round: order.round,
    hold: order.hold,
    fee: order.fee,
    feeDue: order.feeDue,
    ledger: order.ledger,
    placedAt: order.orderDate,
    timeline: order.timeline,
  }
}

const utc = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC` : '-'

function showLines(order: ShownOrder) {
  const status = [
    order.status === 'fail' ? `fail (${order.statusLabel})` : order.status,
    order.confirmationNumber ? `confirmation ${order.confirmationNumber}` : null,
    order.failReason ? `reason: ${order.failReason}` : null,
    order.round > 1 ? `round ${order.round}` : null,
  ]
  const refunded = order.fee.refundedCents ? `, refunded ${dollars(order.fee.refundedCents)}` : ''
  // The lifecycle's own times, then what happened to the order after checkout, oldest first.
  const steps = [
    { at: order.orderDate, what: 'placed' },
    { at: order.processingAt, what: 'processing' },
    { at: order.succeededAt, what: 'success' },
    { at: order.failedAt, what: 'fail' },
    { at: order.cancelledAt, what: 'cancelled' },
  ].filter((step): step is { at: string; what: string } => Boolean(step.at))
  const events = order.timeline.map((event) => ({
    at: event.createdAt,
    what: [
      event.kind,
      event.from && event.to && event.from !== event.to ? `${event.from} -> ${event.to}` : null,
      event.actor ?? event.source,
      event.note ? `"${event.note}"` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }))
  const timeline = [...steps, ...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
  return [
    `Order ${order.orderNumber}`,
    `  id        ${order.id}`,
    `  customer  ${order.email} (${order.name})`,
    `  product   ${order.productTitle} (#${order.productId}), size ${order.size} · ${order.style}`,
    `  status    ${status.filter(Boolean).join(', ')}`,
    `  hold      ${order.hold.status}, ${dollars(order.hold.amountCents)}`,
    `  fee       ${order.fee.status}, ${dollars(order.fee.amountCents)}${refunded}`,
    'Ledger',
    ...printTable(
      order.ledger.map((entry) => ({
        at: utc(entry.completedAt ?? entry.createdAt),
        kind: entry.kind,
        status: entry.errorCode ? `${entry.status} (${entry.errorCode})` : entry.status,
        amount: dollars(entry.amountCents),
      }))
    ).map((line) => `  ${line}`),
    'Timeline',
    ...timeline.map((item) => `  ${utc(item.at)}  ${item.what}`),
  ]
}
