import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { printResult, progressBar, UsageError } from '../output.js'
import { positiveId } from './release.js'

export function registerEmailCommands(program: Command) {
  program
    .command('emails:resend')
    .description("Send an order's current e-mail again (marked as a resend)")
    .option('--order <id>', 'one order (UUID)')
    .option('--product <id>', 'every order of a product')
    .option('--all', 'every order')
    .action(async (options: { order?: string; product?: string; all?: boolean }) => {
      const chosen = [options.order, options.product, options.all].filter(Boolean).length
      if (chosen !== 1) throw new UsageError('Give exactly one of --order, --product or --all')
      const productId = positiveId(options.product, '--product')
      await bootApp()
      const { orderEmails } = await import('#notifications/services/order_emails')
      const { orderQueries, releaseOrderQueries } = await import('#orders/services/order_queries')
      const orders = options.order
        ? [await orderQueries.findByPublicId(options.order)]
        : await releaseOrderQueries.withStatuses(
            ['pending', 'processing', 'success', 'fail', 'cancelled'],
            productId
          )
      if (options.order && !orderEmails.current(orders[0])) {
        await orderEmails.resend(orders[0])
      }
      const bar = progressBar(program.opts(), orders.length, 'Resending')
      const result = await orderEmails.resendMany(orders, () => bar.increment())
      bar.stop()
      printResult(program.opts(), { success: true, ...result }, [
        `Resent ${result.sent} e-mail(s)` +
          (result.skipped ? `, ${result.skipped} order(s) had none` : ''),
      ])
    })
}
