/*
| Test-only crash injection. With DROPSLOT_CRASH_AFTER=<step>[:<n>] the process kills itself with
| SIGKILL the n-th time (default 1st) it passes `crashPoint('<step>')`: the crash tests use it to
| stop a real `release:run` at chosen lines and prove that the next run repairs everything.
| Refused outside NODE_ENV=test, so it can never fire in production.
*/
const counts = new Map<string, number>()

export function crashPoint(step: string) {
  const setting = process.env.DROPSLOT_CRASH_AFTER
  if (!setting || process.env.NODE_ENV !== 'test') return
  const [name, nth] = setting.split(':')
  if (name !== step) return
  const seen = (counts.get(step) ?? 0) + 1
  counts.set(step, seen)
  if (seen >= Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL')
}
