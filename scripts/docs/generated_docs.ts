import { fileURLToPath } from 'node:url'
import { createProgram } from '../../cli/program.js'
import { cliReference } from './cli_reference.js'
import { configurationReference } from './configuration_reference.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Each generated file of docs/ and the text the code gives it now. */
export async function generatedDocs(): Promise<Record<string, string>> {
  return {
    'docs/cli.md': cliReference(createProgram()),
    'docs/configuration.md': configurationReference(ROOT),
  }
}
