import type { Command } from 'commander'
import { ORDER_STATUS_LABELS } from '#shared/vocabulary'
import { untilStopSignal } from '#core/services/stop_signal'
import { bootApp } from '../app.js'
import { CommandFailed, printResult, printTable, progressBar, UsageError } from '../output.js'
import { cliActor } from '../actor.js'

export function positiveId(value: string | undefined, name: string): number | null {
  if (value === undefined) return null
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`${name} must be a product id`)
  return Number(value)
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

export function registerReleaseCommands(program: Command) {
  program
    .command('release:run')
    .description(
      'Submit the pending orders of released products to the checkout engine and apply results'
    )
    .option('--product <id>', 'only this product (it must be released)')
    .option('--dry-run', 'show what would be submitted; change nothing')
    .option('--engine <name>', 'simulator | webhook | files (default: CHECKOUT_ENGINE)')
    .action(async (options: { product?: string; dryRun?: boolean; engine?: string }) => {
      const productId = positiveId(options.product, '--product')
      if (options.engine && !['simulator', 'webhook', 'files'].includes(options.engine)) {
        throw new UsageError('--engine must be simulator, webhook or files')
      }
      await bootApp()
      const actor = await cliActor(program, 'release')
      const { releaseRunner } = await import('#release/services/release_runner')
      const { auditLog } = await import('#core/services/audit_log_service')
      let bar = progressBar(program.opts(), 0, 'release')
      const report = await releaseRunner.run({
        productId,
        dryRun: options.dryRun ?? false,
        engine: options.engine as any,
        onPlan: (total) => (bar = progressBar(program.opts(), total, 'Release run')),
        onItem: () => bar.increment(),
      })
      bar.stop()
      if (report.runId !== null) {
        await auditLog.record({
          actor,
          action: report.dryRun ? 'release.dry_run' : 'release.run',
          subjectType: 'release_run',
          subjectId: report.runId,
          meta: {
            productId,
            engine: report.engine,
            status: report.status,
            submitted: report.submitted,
            succeeded: report.succeeded,
            failed: report.failed,
            feesCharged: report.feesCharged,
            feesDue: report.feesDue,
            settling: report.settling,
            via: 'cli',
            ...(report.error ? { error: report.error } : {}),
          },
        })
      }
      if (report.status === 'failed') {
        throw new CommandFailed(`Release run #${report.runId} failed: ${report.error}`, report)
      }
      const lines: string[] = []
      if (report.status === 'skipped') {
        lines.push(`Another release run is in progress (${report.lockedBy}); nothing done.`)
      } else if (report.runId === null) {
        lines.push(
          report.products.length
            ? 'Nothing to do: no order of a released product waits for a submission, a result ' +
                'or a fee (no run recorded).'
            : 'Nothing to do: no product has reached its release time (no run recorded).'
        )
      } else {
        lines.push(
          `Release run #${report.runId}${report.dryRun ? ' (dry run)' : ''}, engine ${report.engine}`
        )
        lines.push(
          report.products.length
            ? `Released products: ${report.products.map((p) => `#${p.id} ${p.title}`).join(', ')}`
            : 'No product has reached its release time.'
        )
        if (report.plan) {
          lines.push(
            `Would submit ${report.plan.readyToSubmit} order(s), resume ${report.plan.toResume}, ` +
              `finish ${report.plan.toFinish}, retry ${report.plan.feeRetries} declined fee(s).`
          )
        } else {
          lines.push(
            `Submitted ${report.submitted}: ${report.succeeded} succeeded, ${report.failed} failed` +
              (report.awaitingResult
                ? `, ${report.awaitingResult} awaiting the bot's result`
                : '') +
              (report.submitErrors ? `, ${report.submitErrors} not accepted by the engine` : '')
          )
          lines.push(`Fees charged: ${report.feesCharged}, fees due (declined): ${report.feesDue}`)
          if (report.settling) {
            lines.push(
              `${report.settling} result(s) handed to the workers' gateway queue: fees, releases ` +
                'and e-mails follow within the gateway rate (see `dropslot queues:status`)'
            )
          }
          if (report.resumed)
            lines.push(`Finished ${report.resumed} result(s) left by an earlier run`)
          if (report.feeRetries) lines.push(`Retried ${report.feeRetries} declined fee(s)`)
        }
        if (report.awaitingHold) {
          lines.push(`${report.awaitingHold} order(s) still wait for their $1.00 card check`)
        }
      }
      printResult(program.opts(), { success: true, ...report }, lines)
    })

  program
    .command('release:unlock')
    .description(
      'Free the release lock of a run whose process died, so the next run starts now; audited'
    )
    .requiredOption('--reason <text>', 'why (kept in the audit log)')
    .option('--force', 'free it even though its holder renewed it recently')
    .action(async (options: { reason: string; force?: boolean }) => {
      if (!options.reason.trim()) throw new UsageError('--reason must say why')
      await bootApp()
      const actor = await cliActor(program, 'release')
      const { releaseRunner } = await import('#release/services/release_runner')
      const { auditLog } = await import('#core/services/audit_log_service')
      const { AppError } = await import('#core/exceptions/app_error')
      let result
      try {
        result = await releaseRunner.unlock({ force: options.force, by: actor.label })
      } catch (error) {
        if (error instanceof AppError) throw new CommandFailed(error.message)
        throw error
      }
      await auditLog.record({
        actor,
        action: 'release.unlock',
        subjectType: 'release_lock',
        reason: options.reason.trim(),
        meta: { ...result, forced: Boolean(options.force) },
      })
      printResult(program.opts(), { success: true, ...result }, [
        result.unlocked
          ? `Freed the release lock held by ${result.owner}.`
          : 'The release lock was free.',
        `${result.interruptedRuns} run(s) marked interrupted; the next run takes their orders over.`,
      ])
    })

  program
    .command('release:status')
    .description('Orders by status, fees charged and due, holds open, last run')
    .option('--product <id>', 'only this product')
    .action(async (options: { product?: string }) => {
      const productId = positiveId(options.product, '--product')
      await bootApp()
      const { releaseStatus } = await import('#release/services/release_status')
      const status = await releaseStatus.status(productId)
      const run = status.lastRun
      printResult(program.opts(), { success: true, ...status }, [
        productId ? `Product #${productId}` : 'All products',
        ...printTable(
          Object.entries(status.statuses).map(([name, count]) => ({
            status: name === 'fail' ? `fail (${ORDER_STATUS_LABELS.fail})` : name,
            orders: count,
          }))
        ),
        `Fees charged: ${status.feesCharged} (${dollars(status.feesChargedCents)})`,
        `Fees due (declined, retried by later runs): ${status.feesDue} (${dollars(status.feesDueCents)})`,
        `Holds open: ${status.holdsOpen}`,
        `Awaiting a bot's result: ${status.awaitingResult}`,
        run
          ? `Last run: #${run.id} ${run.status} at ${run.finishedAt ?? run.startedAt} (${run.engine}; ` +
            `${run.ordersSubmitted} submitted, ${run.ordersAwaiting} awaiting, ` +
            `${run.ordersSucceeded} succeeded, ${run.ordersFailed} failed)` +
            (run.error ? `\n  ${run.error}` : '')
          : 'Last run: none yet',
        ...(status.runningNow ? [`Running now: ${status.runningNow}`] : []),
        ...(status.runningNowUnknown
          ? [`Running now: unknown, the release lock did not answer (${status.runningNowUnknown})`]
          : []),
      ])
    })

  program
    .command('release:report')
    .description(
      "A release's outcome report (what /releases/:id publishes once settled), its checks and " +
        "the ledger reconciled with the gateway's own records; exits 1 if a check fails or a " +
        'difference is found'
    )
    .requiredOption('--product <id>', 'the released product')
    .action(async (options: { product: string }) => {
      const productId = positiveId(options.product, '--product')!
      await bootApp()
      const { releaseReports } = await import('#release/services/release_report')
      const report = await releaseReports.consoleReport(productId)
      const percent = (value: number | null) =>
        value === null ? '-' : `${(value * 100).toFixed(1)} %`
      const reconciliation = report.reconciliation
      const failing = report.checks.filter((check) => !check.ok)
      const lines = [
        `#${report.product.id} ${report.product.title} (${report.product.retailer}), released ` +
          `${report.product.releaseAt ?? '-'}`,
        report.settled
          ? 'Settled: every order has its result (the public report is out).'
          : `Not settled: ${report.open} order(s) still wait for release day or a result` +
            (report.product.restockUntil
              ? `, and restocks are tried until ${report.product.restockUntil}`
              : '') +
            ' (the public report waits for them).',
        `Slots ${report.slots}, ${report.draw ? `draw entries ${report.draw.entries} (selected ${report.draw.selected}), ` : ''}orders ${report.orders}, ` +
          `submitted ${report.submitted}, succeeded ${report.succeeded} (${percent(report.successRate)})`,
        `Failed ${report.failed.total}: sold out ${report.failed.soldOut}, declined at the ` +
          `retailer ${report.failed.declined}, address rejected ${report.failed.address}, above the ` +
          `buyer's price cap ${report.failed.aboveCap}, other ` +
          `${report.failed.other}; cancelled by the retailer after success ` +
          `${report.cancelledAfterSuccess}; never submitted ${report.notSubmitted}`,
        ...(report.wins.byRetailer.length
          ? [
              `Won at: ${report.wins.byRetailer.map((entry) => `${entry.name} ${entry.won}`).join(', ')}; ` +
                `in sizes: ${report.wins.bySize.map((entry) => `${entry.size} ${entry.won}`).join(', ')}`,
            ]
          : []),
        ...printTable(
          report.bySize.map((size) => ({
            size: size.size,
            orders: size.orders,
            submitted: size.submitted,
            succeeded: size.succeeded,
            failed: size.failed.total,
            rate: percent(size.successRate),
          }))
        ),
        `Fees charged ${dollars(report.fees.chargedCents)}, refunded ` +
          `${dollars(report.fees.refundedCents)}, kept ${dollars(report.fees.netCents)}, due ` +
          `${dollars(report.fees.dueCents)}`,
        ...report.checks.map(
          (check) => `Check ${check.ok ? 'ok    ' : 'FAILED'} ${check.name}: ${check.detail}`
        ),
        `Reconciliation with the ${reconciliation.gateway} gateway: ledger ` +
          `${dollars(reconciliation.ledger.chargedCents)} charged, ` +
          `${dollars(reconciliation.ledger.refundedCents)} refunded; gateway ` +
          `${dollars(reconciliation.gatewayRecords.chargedCents)} charged, ` +
          `${dollars(reconciliation.gatewayRecords.refundedCents)} refunded; ` +
          `${reconciliation.matched} matched, ${reconciliation.differences.length} difference(s)`,
        ...(reconciliation.differences.length
          ? printTable(
              reconciliation.differences.map((difference) => ({
                order: difference.orderNumber ?? '-',
                kind: `${difference.kind} (${difference.money})`,
                ledger: difference.ledgerCents === null ? '-' : dollars(difference.ledgerCents),
                gateway: difference.gatewayCents === null ? '-' : dollars(difference.gatewayCents),
                ref: difference.gatewayRef ?? '-',
                note: difference.note,
              }))
            )
          : []),
      ]
      const problems = failing.length > 0 || !reconciliation.balanced
      if (problems) {
        for (const line of lines) process.stderr.write(`${line}\n`)
        throw new CommandFailed(
          `${failing.length} check(s) failed, ${reconciliation.differences.length} difference(s) ` +
            'between the ledger and the gateway',
          { report }
        )
      }
      printResult(program.opts(), { success: true, report }, lines)
    })

  program
    .command('schedule:work')
    .description(
      'Run release:run every minute in this process (for hosts without cron); also delivers ' +
        'e-mail and deletes card security codes no longer needed'
    )
    .option('--every <seconds>', 'interval in seconds', '60')
    .option('--once', 'run one tick and exit (for testing the scheduler)')
    .action(async (options: { every: string; once?: boolean }) => {
      if (!/^\d+$/.test(options.every) || Number(options.every) < 1) {
        throw new UsageError('--every must be a whole number of seconds')
      }
      await bootApp()
      const { releaseRunner } = await import('#release/services/release_runner')
      const { emailDelivery } = await import('#notifications/services/email_delivery')
      const { cardCodeRetention } = await import('#profiles/services/card_code_retention')
      const json = program.opts().json
      const tick = async () => {
        try {
          const report = await releaseRunner.run({ trigger: 'schedule' })
          // Hosts without the web process still get their e-mail out (or, without SMTP outside
          // production, into the console's mailbox).
          await emailDelivery.deliverDue()
          await cardCodeRetention.purgeDue()
          const line = json
            ? JSON.stringify({ at: new Date().toISOString(), ...report })
            : `${new Date().toISOString()} run #${report.runId ?? '-'} ${report.status}: ` +
              `${report.submitted} submitted, ${report.succeeded} succeeded, ${report.failed} failed`
          process.stdout.write(`${line}\n`)
        } catch (error) {
          process.stderr.write(
            `${new Date().toISOString()} run failed: ${(error as Error).message}\n`
          )
        }
      }
      // A signal lets the tick in flight finish before the application closes.
      const stopSignal = untilStopSignal()
      await tick()
      if (options.once) return
      let ticking = Promise.resolve()
      const timer = setInterval(
        () => {
          ticking = ticking.then(tick)
        },
        Number(options.every) * 1000
      )
      await stopSignal
      clearInterval(timer)
      await ticking
    })
}
