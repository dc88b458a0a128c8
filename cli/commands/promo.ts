import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { printResult, UsageError } from '../output.js'
import { cliActor } from '../actor.js'

function positiveInteger(value: string, name: string) {
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number`)
  return Number(value)
}

export function registerPromoCommands(program: Command) {
  program
    .command('promo:create')
    .description('Create a promo code (percent off the service fee)')
    .argument('<code>', 'the code customers type, e.g. DROP10')
    .argument('<percent>', 'percent off, 1-100')
    .option('--max-uses <n>', 'how many orders may use it')
    .option('--starts <date>', 'first moment it works (ISO date or date-time)')
    .option('--expires <date>', 'moment it stops working (ISO date or date-time)')
    .action(
      async (
        code: string,
        percent: string,
        options: { maxUses?: string; starts?: string; expires?: string }
      ) => {
        const parsed = {
          code,
          percent: positiveInteger(percent, 'percent'),
          maxUses: options.maxUses ? positiveInteger(options.maxUses, '--max-uses') : null,
          startsAt: options.starts ?? null,
          expiresAt: options.expires ?? null,
        }
        await bootApp()
        const actor = await cliActor(program, 'catalog')
        const { promoCodeService } = await import('#checkout/services/promo_code_service')
        const { auditLog } = await import('#core/services/audit_log_service')
        const promo = await promoCodeService.createFromInput(parsed)
        await auditLog.record({
          actor,
          action: 'promo.create',
          subjectType: 'promo_code',
          subjectId: promo.id,
          meta: {
            promoCode: promo.code,
            percent: promo.percent,
            maxUses: promo.maxUses,
            via: 'cli',
          },
        })
        printResult(program.opts(), { success: true, promo: promoCodeService.present(promo) }, [
          `Created ${promo.code}: ${promo.percent}% off` +
            (promo.maxUses ? `, ${promo.maxUses} uses` : '') +
            (promo.expiresAt ? `, until ${promo.expiresAt.toISO()}` : ''),
        ])
      }
    )
}
