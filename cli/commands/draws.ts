import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { CommandFailed, printResult, UsageError } from '../output.js'
import { cliActor } from '../actor.js'
import { positiveId } from './release.js'
import type { Beacon, DrawProof, InclusionProof } from '#shared/draw'

async function getJson<T>(url: URL): Promise<T> {
  const response = await fetch(url)
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null
  if (!response.ok)
    throw new CommandFailed(body?.error ?? `${url.origin} answered ${response.status}`)
  return body as T
}

/** The published proof: from a running Dropslot (`--url`), or this install's own database. */
async function publishedProof(productId: number, url?: string): Promise<DrawProof> {
  if (url) return getJson<DrawProof>(new URL(`/api/products/${productId}/draw`, url))
  await bootApp()
  const { drawRunner } = await import('#draws/services/draw_runner')
  return drawRunner.proof(productId)
}

async function inclusionProof(productId: number, entryId: string, url?: string) {
  if (url) {
    return getJson<InclusionProof>(
      new URL(`/api/products/${productId}/draw/entries/${encodeURIComponent(entryId)}`, url)
    )
  }
  const { drawEntries } = await import('#draws/services/draw_entries')
  return drawEntries.inclusion(productId, entryId)
}

/** A quicknet round saved from a relay (`/public/ROUND`): round, randomness, signature. */
async function beaconFile(path: string): Promise<Beacon> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new UsageError(`--beacon ${path}: not a readable JSON file (${(error as Error).message})`)
  }
  const value = parsed as Partial<Beacon>
  if (
    !value ||
    typeof value.round !== 'number' ||
    typeof value.randomness !== 'string' ||
    typeof value.signature !== 'string'
  ) {
    throw new UsageError(`--beacon ${path}: expected {"round", "randomness", "signature"}`)
  }
  const { QUICKNET } = await import('#shared/draw')
  return {
    chainHash: value.chainHash ?? QUICKNET.chainHash,
    round: value.round,
    randomness: value.randomness,
    signature: value.signature,
  }
}

export function registerDrawCommands(program: Command) {
  program
    .command('draw:run')
    .description(
      'Run a draw whose entries have closed, on its committed quicknet round (once: running it again changes nothing)'
    )
    .requiredOption('--product <id>', 'the draw product')
    .option(
      '--beacon <file>',
      'the round from a file (JSON as a drand relay serves it); refused unless its signature verifies'
    )
    .action(async (options: { product: string; beacon?: string }) => {
      const productId = positiveId(options.product, '--product')!
      const beacon = options.beacon ? await beaconFile(options.beacon) : undefined
      await bootApp()
      const actor = await cliActor(program, 'release')
      const { drawRunner } = await import('#draws/services/draw_runner')
      const report = await drawRunner.run(productId, actor, { beacon })
      printResult(program.opts(), report, [
        report.drawnNow
          ? `Drew product ${productId} on quicknet round ${report.round}: ${report.winners.length} winner(s) of ${report.entries} ranked entries (${report.skipped} without a placed card check)`
          : `Product ${productId} was drawn already: result unchanged (${report.moved} order(s) finished, ${report.promoted} alternate(s) promoted)`,
        ...report.winners.map((entryId, index) => `${index + 1}. ${entryId}`),
      ])
    })

  program
    .command('draw:verify')
    .description(
      "Check a draw from its published proof alone: commitment, seed, the beacon's signature and round, the entries' root, the winners, an entry's inclusion"
    )
    .requiredOption('--product <id>', 'the draw product')
    .option('--url <base>', 'read the proof from this Dropslot (e.g. https://dropslot.example)')
    .option('--entry <id>', 'also check that this entry id is in the frozen list')
    .action(async (options: { product: string; url?: string; entry?: string }) => {
      const productId = positiveId(options.product, '--product')!
      const proof = await publishedProof(productId, options.url)
      if (proof.status === 'not_open') {
        throw new UsageError(
          `Product ${productId}'s entries have not opened: nothing is committed yet`
        )
      }
      const inclusion = options.entry
        ? await inclusionProof(productId, options.entry, options.url)
        : null
      const { verifyDraw } = await import('#shared/draw')
      const verification = await verifyDraw(proof, { inclusion })
      const result = { productId, status: proof.status, ...verification }
      const mark = { pass: 'ok  ', fail: 'FAIL', pending: '... ' } as const
      const lines = [
        ...verification.checks.map(
          (check) => `${mark[check.status]} ${check.name}: ${check.detail}`
        ),
        ...(proof.status === 'drawn'
          ? verification.winners.map((entryId, index) => `${index + 1}. ${entryId}`)
          : [`The draw is ${proof.status}: the steps marked ... are checked once it has run.`]),
      ]
      if (!verification.ok) {
        if (!program.opts().json) printResult(program.opts(), result, lines)
        throw new CommandFailed('The draw does not verify', result)
      }
      printResult(program.opts(), { success: true, ...result }, lines)
    })
}
