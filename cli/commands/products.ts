import type { Command } from 'commander'
import { userInfo } from 'node:os'
import { bootApp } from '../app.js'
import { CommandFailed, printResult, progressBar, UsageError } from '../output.js'

export function registerProductCommands(program: Command) {
  program
    .command('products:import')
    .description('Create or update products from a JSON array or CSV (upsert by slug)')
    .argument('<file>', 'products file (.json or .csv; the admin API field names)')
    .action(async (file: string) => {
      await bootApp()
      const { importProducts, readRows, ImportFileError } =
        await import('#catalog/services/product_import')
      let result
      try {
        const rows = await readRows(file, 'products')
        const total = rows.length
        const bar = progressBar(program.opts(), total, 'Products')
        result = await importProducts(file, { label: `cli:${userInfo().username}` }, () =>
          bar.increment()
        )
        bar.stop()
      } catch (error) {
        if (error instanceof ImportFileError) throw new UsageError(error.message)
        throw error
      }
      const lines = [
        `Created ${result.created.length}, updated ${result.updated.length} of ${result.total} row(s)`,
        ...result.errors.map((item) => `row ${item.row}: ${item.error}`),
      ]
      if (result.errors.length) {
        if (!program.opts().json) printResult(program.opts(), result, lines)
        throw new CommandFailed(`${result.errors.length} row(s) were not imported`, result)
      }
      printResult(program.opts(), { success: true, ...result }, lines)
    })
}
