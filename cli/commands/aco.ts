import type { Command } from 'commander'
import { userInfo } from 'node:os'
import { resolve } from 'node:path'
import { bootApp } from '../app.js'
import { printResult, UsageError } from '../output.js'
import { positiveId } from './release.js'

export function registerAcoCommands(program: Command) {
  program
    .command('aco:export')
    .description("Export a product's active orders with decrypted profiles for a bot (audited)")
    .requiredOption('--product <id>', 'product id')
    .option('--format <format>', 'dropslot | aycd | stellar | cybersole | csv', 'dropslot')
    .requiredOption('--out <dir>', 'directory to write the file to (created, mode 0700)')
    .requiredOption('--reason <text>', 'why you need the card data (written to the audit log)')
    .action(async (options: { product: string; format: string; out: string; reason: string }) => {
      const productId = positiveId(options.product, '--product')!
      await bootApp()
      const { acoExportService } = await import('#release/services/aco_export_service')
      const { AppError } = await import('#core/exceptions/app_error')
      let exported
      try {
        exported = await acoExportService.forProduct(productId, {
          format: options.format,
          reason: options.reason,
          actor: { label: `cli:${userInfo().username}` },
        })
      } catch (error) {
        if (error instanceof AppError && error.status === 400) throw new UsageError(error.message)
        throw error
      }
      const path = await acoExportService.writeTo(
        resolve(options.out),
        `aco-product-${productId}-${options.format}`,
        exported.file
      )
      printResult(
        program.opts(),
        { success: true, path, format: exported.file.format, orders: exported.count },
        [`Wrote ${exported.count} order(s) to ${path} (audited; the file holds card data)`]
      )
    })
}
