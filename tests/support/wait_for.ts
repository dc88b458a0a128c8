/**
 * Waits for something to happen instead of for a fixed time: `check` is asked every
 * `intervalMs` until it returns a value other than false, null or undefined, which is returned.
 * `timeoutMs` is only a ceiling: past it the wait fails, with `what` in the message.
 */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}
): Promise<Exclude<T, false | null | undefined>> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== false && value !== null && value !== undefined) {
      return value as Exclude<T, false | null | undefined>
    }
    if (Date.now() >= deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, 100)))
  }
}
