import cliProgress from 'cli-progress'

/** Exit codes of every command: 0 done, 1 failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

export class UsageError extends Error {}
export class CommandFailed extends Error {
  constructor(
    message: string,
    public details?: unknown
  ) {
    super(message)
  }
}

export type OutputOptions = { json?: boolean }

/** Prints a result: one JSON document with --json, readable lines otherwise. */
export function printResult(options: OutputOptions, result: unknown, lines: string[]) {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } else {
    for (const line of lines) process.stdout.write(`${line}\n`)
  }
}

export function printTable(rows: Record<string, unknown>[]) {
  if (rows.length === 0) return ['(none)']
  const columns = Object.keys(rows[0])
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column] ?? '').length))
  )
  const format = (values: string[]) => values.map((value, i) => value.padEnd(widths[i])).join('  ')
  return [
    format(columns),
    format(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => format(columns.map((column) => String(row[column] ?? '')))),
  ]
}

/** A progress bar on an interactive terminal (never in --json mode or when piped). */
export function progressBar(options: OutputOptions, total: number, label: string) {
  if (options.json || !process.stderr.isTTY || total === 0) {
    return { increment: () => {}, stop: () => {} }
  }
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic
  )
  bar.start(total, 0)
  return { increment: () => bar.increment(), stop: () => bar.stop() }
}
