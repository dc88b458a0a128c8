/*
| Who stops this process on SIGTERM (and SIGINT). By default the application terminates at once
| (bin/ignitor.ts): the web server stops taking requests, then the database and Redis close. A
| process with work to finish first (a worker's running jobs, a watch loop's tick) takes the
| signal here instead and terminates the application itself once that work is done: closing the
| database and Redis at the signal would pull them from under it (a hold placed at the gateway,
| its money lock never released).
*/
let claimed = false

/** Resolves with the first SIGTERM or SIGINT; the application then waits for its caller. */
export function untilStopSignal(): Promise<'SIGTERM' | 'SIGINT'> {
  claimed = true
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'))
    process.once('SIGINT', () => resolve('SIGINT'))
  })
}

/** Whether a caller of `untilStopSignal` terminates the application itself. */
export function stopSignalClaimed() {
  return claimed
}
