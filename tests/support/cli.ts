import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import app from '@adonisjs/core/services/app'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export type CliResult = { code: number; stdout: string; stderr: string; json: any }

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
        let json: any = null
        try {
          json = JSON.parse(stdout.trim().split('\n').pop() ?? '')
        } catch {}
        resolve({ code, stdout, stderr, json })
      }
    )
  })
}
