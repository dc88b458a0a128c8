import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { cliActor } from '../actor.js'
import { printResult } from '../output.js'

export function registerCardCommands(program: Command) {
  program
    .command('cards:purge')
    .description(
      'Delete the card security code of profiles past the retention (CARD_CODE_RETENTION_HOURS) ' +
        'with no active order and no choice to keep it'
    )
    .option('--dry-run', 'count the profiles, change nothing')
    .action(async (options: { dryRun?: boolean }) => {
      await bootApp()
      const actor = await cliActor(program, 'cards')
      const { cardCodeRetention } = await import('#profiles/services/card_code_retention')
      const { default: dropslotConfig } = await import('#config/dropslot')
      const result = await cardCodeRetention.purgeDue({ dryRun: options.dryRun, actor })
      const hours = dropslotConfig.cardCodeRetentionHours
      printResult(program.opts(), { success: true, dryRun: Boolean(options.dryRun), ...result }, [
        options.dryRun
          ? `${result.due} profile(s) would lose their card security code (retention ${hours} h)`
          : `Deleted the card security code of ${result.purged} profile(s) (retention ${hours} h)`,
      ])
    })
}
