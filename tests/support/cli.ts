import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../../cli/dropslot.js', import.meta.url))

export type CliResult = { code: number; stdout: string; stderr: string; json: any }

/** Runs the real `dropslot` binary against the test database (NODE_ENV=test). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, NODE_ENV: 'test', ...env }, timeout: 120_000 },
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
