import { createHash, createHmac } from 'node:crypto'
import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { CommandFailed, printResult, UsageError } from '../output.js'
import { cliActor } from '../actor.js'
import { positiveId } from './release.js'
import type { DrawProof } from '#shared/draw'

/** The published proof: from a running Dropslot (`--url`), or this install's own database. */
async function publishedProof(productId: number, url?: string): Promise<DrawProof> {
  if (url) {
    const response = await fetch(new URL(`/api/products/${productId}/draw`, url))
    const body = (await response.json().catch(() => null)) as DrawProof & { error?: string }
    if (!response.ok) throw new CommandFailed(body?.error ?? `${url} answered ${response.status}`)
    return body
  }
  await bootApp()
  const { drawRunner } = await import('#draws/services/draw_runner')
  return drawRunner.proof(productId)
}

export function registerDrawCommands(program: Command) {
  program
    .command('draw:run')
    .description('Run a draw whose entries have closed (once: running it again changes nothing)')
    .requiredOption('--product <id>', 'the draw product')
    .action(async (options: { product: string }) => {
      const productId = positiveId(options.product, '--product')!
      await bootApp()
      const actor = await cliActor(program)
      const { drawRunner } = await import('#draws/services/draw_runner')
      const report = await drawRunner.run(productId, actor)
      printResult(program.opts(), report, [
        report.drawnNow
          ? `Drew product ${productId}: ${report.winners.length} winner(s) of ${report.entries} entries`
          : `Product ${productId} was drawn already: result unchanged (${report.moved} order(s) finished)`,
        ...report.winners.map((entryId, index) => `${index + 1}. ${entryId}`),
      ])
    })

  program
    .command('draw:verify')
    .description('Recompute a draw from its published proof: seed, entry ids and slots only')
    .requiredOption('--product <id>', 'the draw product')
    .option('--url <base>', 'read the proof from this Dropslot (e.g. https://dropslot.example)')
    .action(async (options: { product: string; url?: string }) => {
      const productId = positiveId(options.product, '--product')!
      const proof = await publishedProof(productId, options.url)
      if (!proof.seed) throw new UsageError(`Product ${productId} has not been drawn yet`)
      const { verifyDraw } = await import('#shared/draw')
      const { commitmentMatches, winnersMatch, winners } = await verifyDraw(
        { ...proof, seed: proof.seed },
        (text) => createHash('sha256').update(text).digest('hex'),
        (key, message) => createHmac('sha256', key).update(message).digest('hex')
      )
      const result = { productId, commitmentMatches, winnersMatch, winners }
      const lines = [
        `Commitment ${proof.commitment}: ${commitmentMatches ? 'matches the seed' : 'DOES NOT match the seed'}`,
        `${proof.entries.length} entries, ${proof.slots} slot(s): ${winnersMatch ? 'the published winners are recomputed exactly' : 'the published winners DIFFER'}`,
        ...winners.map((entryId, index) => `${index + 1}. ${entryId}`),
      ]
      if (!commitmentMatches || !winnersMatch) {
        if (!program.opts().json) printResult(program.opts(), result, lines)
        throw new CommandFailed('The draw does not verify', result)
      }
      printResult(program.opts(), { success: true, ...result }, lines)
    })
}
