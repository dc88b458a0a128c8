import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { cliActor } from '../actor.js'
import { printResult, progressBar, UsageError } from '../output.js'
import { ORDER_ARGUMENT } from './orders.js'

const STATUSES = ['pending', 'processing', 'success', 'fail', 'cancelled']

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`${name} must be an id`)
  return Number(value)
}

export function registerEmailCommands(program: Command) {
  program
    .command('emails:resend')
    .description(
      "Send orders' current e-mail again (marked as a resend): one order, or a scope of " +
        '--product, --run and/or --status; --dry-run only counts'
    )
    .option('--order <order>', `one ${ORDER_ARGUMENT}`)
    .option('--product <id>', 'the orders of a product')
    .option('--run <id>', 'the orders submitted by a release run')
    .option('--status <status>', `the orders with this status (${STATUSES.join(', ')})`)
    .option('--dry-run', 'say how many e-mails would be sent; send nothing')
    .action(
      async (options: {
        order?: string
        product?: string
        run?: string
        status?: string
        dryRun?: boolean
      }) => {
        const scoped = Boolean(options.product || options.run || options.status)
        if (options.order ? scoped : !scoped) {
          throw new UsageError('Give --order, or a scope: --product, --run and/or --status')
        }
        if (options.status && !STATUSES.includes(options.status)) {
          throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`)
        }
        const scope = {
          productId: positive(options.product, '--product'),
          runId: positive(options.run, '--run'),
          status: options.status as any,
        }
        await bootApp()
        const actor = await cliActor(program, 'orders')
        const { orderEmails } = await import('#notifications/services/order_emails')
        const { emailResends } = await import('#release/services/email_resends')
        if (options.order) {
          const { orderQueries } = await import('#orders/services/order_queries')
          const order = await orderQueries.findByReference(options.order)
          const has = orderEmails.current(order) !== null
          if (options.dryRun || !has) {
            if (!has) await orderEmails.resend(order) // the clear "nothing to resend" refusal
            printResult(program.opts(), { success: true, dryRun: true, emails: 1 }, [
              'Dry run: 1 e-mail would be sent',
            ])
            return
          }
          const sent = await orderEmails.resend(order)
          const { auditLog } = await import('#core/services/audit_log_service')
          const { orderTimeline } = await import('#orders/services/order_timeline')
          await orderTimeline.append({
            orderId: order.id,
            kind: 'email_resend',
            from: order.status,
            to: order.status,
            source: 'cli',
            actor: actor.email ?? actor.label,
            meta: { template: sent.template },
          })
          await auditLog.record({
            actor,
            action: 'order.email_resend',
            subjectType: 'order',
            subjectId: order.publicId,
            meta: { via: 'cli', template: sent.template },
          })
          printResult(program.opts(), { success: true, sent: 1, skipped: 0 }, ['Resent 1 e-mail'])
          return
        }
        if (options.dryRun) {
          const count = await emailResends.count(scope)
          printResult(program.opts(), { success: true, dryRun: true, ...count }, [
            `Dry run: ${count.emails} e-mail(s) would be sent` +
              (count.skipped ? ` (${count.skipped} order(s) in the scope have none)` : ''),
          ])
          return
        }
        const planned = await emailResends.count(scope)
        const bar = progressBar(program.opts(), planned.orders, 'Resending')
        const result = await emailResends.send(scope, { actor, via: 'cli' }, () => bar.increment())
        bar.stop()
        printResult(program.opts(), { success: true, ...result }, [
          `Resent ${result.sent} e-mail(s)` +
            (result.skipped ? `, ${result.skipped} order(s) had none` : ''),
        ])
      }
    )
}
