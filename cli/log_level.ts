/*
| The CLI's log level, chosen before the application boots (config/logger.ts reads LOG_LEVEL).
| A command's summary on stdout is what the operator reads, so the operations log on stderr keeps
| to warnings and errors unless --verbose asks for it (info, or LOG_LEVEL when that says more,
| e.g. debug). `worker` is a service like the web process: its log is its only output, so it
| keeps LOG_LEVEL.
*/
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']
const SERVICES = new Set(['worker'])

const rank = (level: string) => {
  const index = LEVELS.indexOf(level)
  return index === -1 ? LEVELS.indexOf('info') : index
}

/** The level to run `command` at, or undefined to leave LOG_LEVEL as it is. */
export function cliLogLevel(options: {
  command: string
  verbose?: boolean
  env: NodeJS.ProcessEnv
}): string | undefined {
  const chosen = options.env.LOG_LEVEL || undefined
  if (SERVICES.has(options.command)) return chosen
  if (options.verbose) return chosen && rank(chosen) < rank('info') ? chosen : 'info'
  // Never louder than the default would be (the test environment's is silent).
  const current = chosen ?? (options.env.NODE_ENV === 'test' ? 'silent' : 'info')
  return rank(current) > rank('warn') ? current : 'warn'
}
