import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type SunkRequest = {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: Buffer
  json: any
}

/**
 * A local HTTP server that keeps every request it gets (an incoming-webhook endpoint, a bot,
 * Discord's API): answers `status` (200 unless told), or what `reply` decides per request.
 */
export class HttpSink {
  received: SunkRequest[] = []
  status = 200
  reply: ((request: SunkRequest) => number) | null = null
  private server: Server | null = null
  port = 0

  async start() {
    this.server = createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks)
      let json: any = null
      try {
        json = JSON.parse(body.toString('utf8'))
      } catch {}
      const sunk = {
        method: request.method ?? '',
        path: request.url ?? '/',
        headers: request.headers,
        body,
        json,
      }
      this.received.push(sunk)
      const status = this.reply ? this.reply(sunk) : this.status
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.port = (this.server!.address() as AddressInfo).port
    return this
  }

  url(path = '/') {
    return `http://127.0.0.1:${this.port}${path}`
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }
}

/** Polls `read` until `done` says so (work done by workers), at most `ms`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const stop = Date.now() + ms
  let value = await read()
  while (!done(value) && Date.now() < stop) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}
