/** What ioredis throws when Redis does not answer: a command out of retries, or a closed link. */
export function isRedisUnreachable(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown }
  return name === 'MaxRetriesPerRequestError' || message === 'Connection is closed.'
}

/**
 * A connection's outage told once: `down` on its first error, `up` when it is ready again, and
 * nothing for every reconnection attempt in between.
 */
export function outageReporter(report: { down(error: Error): void; up(): void }) {
  let unreachable = false
  return {
    down(error: Error) {
      if (unreachable) return
      unreachable = true
      report.down(error)
    },
    up() {
      if (!unreachable) return
      unreachable = false
      report.up()
    },
  }
}
