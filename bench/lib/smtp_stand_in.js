/*
| A local mail server for a benchmark whose processes send e-mail (production does not start
| without SMTP): it takes every message and keeps nothing. It runs in a process of its own, so
| its work is not the load generator's. Stop it with `stop()` (bench/lib/processes.js).
*/
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const self = fileURLToPath(import.meta.url)

export function startSmtpStandIn(port) {
  const child = fork(self, [String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child))
    child.once('exit', (code) => reject(new Error(`the SMTP stand-in exited (${code})`)))
  })
}

if (process.argv[1] === self) {
  const { SMTPServer } = await import('smtp-server')
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume()
      stream.once('end', () => callback())
    },
  })
  server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send?.('ready'))
  process.once('SIGTERM', () => server.close(() => process.exit(0)))
}
