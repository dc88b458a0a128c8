import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { CommandFailed, printResult, progressBar, UsageError } from '../output.js'

export function registerOrderCommands(program: Command) {
  program
    .command('orders:import-results')
    .description("Apply a checkout bot's results file (CSV or JSON: orderId, status, confirmation)")
    .argument('<file>', 'results file (.csv or .json)')
    .action(async (file: string) => {
      await bootApp()
      const { importResults, ImportFileError } = await import('#release/services/import_files')
      let result
      try {
        const { readRows } = await import('#release/services/import_files')
        const rows = await readRows(file, 'results')
        const total = rows.length
        const bar = progressBar(program.opts(), total, 'Results')
        result = await importResults(file, () => bar.increment())
        bar.stop()
      } catch (error) {
        if (error instanceof ImportFileError) throw new UsageError(error.message)
        throw error
      }
      const lines = [
        `Applied ${result.applied.length} of ${result.total} result(s)`,
        ...result.errors.map((item) => `row ${item.row}: ${item.error}`),
      ]
      if (result.errors.length) {
        if (!program.opts().json) printResult(program.opts(), result, lines)
        throw new CommandFailed(`${result.errors.length} row(s) were not applied`, result)
      }
      printResult(program.opts(), { success: true, ...result }, lines)
    })

  program
    .command('orders:mark')
    .description('Record the result of one order by hand (charges the fee on success)')
    .argument('<order>', 'order id (UUID)')
    .argument('<result>', 'success | fail')
    .option('--confirmation <number>', "the retailer's confirmation number (success)")
    .option('--reason <text>', 'why it failed (fail)')
    .action(
      async (
        orderId: string,
        outcome: string,
        options: { confirmation?: string; reason?: string }
      ) => {
        if (outcome !== 'success' && outcome !== 'fail') {
          throw new UsageError('result must be success or fail')
        }
        await bootApp()
        const { releaseResults } = await import('#release/services/release_results')
        const finished = await releaseResults.record(
          {
            orderId,
            status: outcome,
            confirmationNumber: options.confirmation ?? null,
            reason: options.reason ?? null,
          },
          'manual'
        )
        const order = finished.order
        printResult(
          program.opts(),
          {
            success: true,
            orderId: order.publicId,
            status: order.status,
            feeStatus: order.feeStatus,
            holdStatus: order.holdStatus,
            confirmationNumber: order.confirmationNumber,
          },
          [
            `Order ${order.publicId}: ${order.status === 'fail' ? 'fail (Refunded)' : order.status}` +
              `, fee ${order.feeStatus}, hold ${order.holdStatus}`,
          ]
        )
      }
    )
}
