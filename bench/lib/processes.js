/*
| Child processes of the benchmarks: wait for a server's /health, stop a process gracefully.
*/

export async function waitForHealth(port, child) {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`server on port ${port} exited (${child.exitCode})`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`)
      if (response.ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server on port ${port} did not answer /health`)
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
export function stop(child, graceMs = 5000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', resolve)
    child.kill('SIGTERM')
    setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), graceMs).unref()
  })
}

/** Refuses a port something already answers on: a server left from an earlier run would be measured instead. */
export async function assertPortFree(port) {
  const answered = await fetch(`http://127.0.0.1:${port}/health`).then(
    () => true,
    () => false
  )
  if (answered) {
    throw new Error(
      `port ${port} already answers (a server left from an earlier run?): stop it first`
    )
  }
}
