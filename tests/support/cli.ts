import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import app from '@adonisjs/core/services/app'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export type CliResult = { code: number; stdout: string; stderr: string; json: any }

/** The last line of a command's stdout as JSON (what `--json` prints), or null. */
function lastJsonLine(stdout: string) {
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '')
  } catch {
    return null
  }
}

let buildChecked = false

/**
 * The `dropslot` entry of the production build, which is how operators run it: built once
 * (`node ace build`), and again only when the code is newer than the build. CI builds before the
 * suites start, so its two suites never build at once.
 */
export async function cliEntry() {
  if (!buildChecked) {
    // A JavaScript module shared with the benchmarks (loaded by URL: it has no type declarations).
    const { buildWhenStale } = await import(
      new URL('../../scripts/build_when_stale.js', import.meta.url).href
    )
    buildWhenStale(ROOT, (line: string) => console.log(line))
    buildChecked = true
  }
  return join(ROOT, 'build', 'cli', 'dropslot.js')
}

/**
 * The environment of a CLI process on the test database. The build's application root is
 * build/, so the embedded database's default path is given explicitly.
 */
export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    SQLITE_PATH: process.env.SQLITE_PATH || app.tmpPath('test.sqlite3'),
    ...env,
  }
}

/** Runs the real `dropslot` binary against the test database (NODE_ENV=test). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const entry = await cliEntry()
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [entry, ...args],
      { env: cliEnv(env), timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout, stderr, json: lastJsonLine(stdout) })
      }
    )
  })
}

/**
 * Runs a `dropslot` command inside this test process, on its application and database: the same
 * program, options, output and exit codes as the binary, without a process to start. For tests of
 * what a command does; those about processes (signals, crashes, exits, another process's
 * environment) use runCli.
 */
export async function runCommand(args: string[]): Promise<CliResult> {
  const { runInApp } = await import('../../cli/app.js')
  const { runProgram } = await import('../../cli/run.js')
  let stdout = ''
  let stderr = ''
  const writeOut = process.stdout.write
  const writeErr = process.stderr.write
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString()
    return true
  }) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString()
    return true
  }) as typeof process.stderr.write
  runInApp(app)
  try {
    const code = await runProgram([process.execPath, 'dropslot', ...args])
    return { code, stdout, stderr, json: lastJsonLine(stdout) }
  } finally {
    runInApp(null)
    process.stdout.write = writeOut
    process.stderr.write = writeErr
  }
}
