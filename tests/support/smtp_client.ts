import { createConnection, type Socket } from 'node:net'

/**
 * A bare SMTP client over a real socket, for tests that need what a mail library hides: the
 * greeting, each reply as it comes, a DATA written chunk by chunk, a connection cut mid-message.
 */
export class RawSmtp {
  private buffer = ''
  private lines: string[] = []
  private replies: string[] = []
  private waiting: ((reply: string) => void)[] = []
  readonly closed: Promise<void>

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8')
    socket.on('data', (text: string) => this.read(text))
    socket.on('error', () => null)
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()))
    void this.closed.then(() => {
      for (const resolve of this.waiting.splice(0)) resolve('')
    })
  }

  static connect(port: number, host = '127.0.0.1') {
    return new Promise<RawSmtp>((resolve, reject) => {
      const socket = createConnection({ port, host })
      socket.once('connect', () => resolve(new RawSmtp(socket)))
      socket.once('error', reject)
    })
  }

  /** The next whole reply (the last line of a multi-line one has a space after its code). */
  reply(): Promise<string> {
    const ready = this.replies.shift()
    if (ready !== undefined) return Promise.resolve(ready)
    if (this.socket.destroyed) return Promise.resolve('')
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Writes a command line and waits for its reply. */
  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`)
    return this.reply()
  }

  /** Writes raw bytes, waiting when the socket asks to (a sender that respects back-pressure). */
  async write(data: string | Buffer) {
    if (!this.socket.write(data)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off('drain', done)
          this.socket.off('close', done)
          resolve()
        }
        this.socket.once('drain', done)
        this.socket.once('close', done)
      })
    }
  }

  /** Greeting, EHLO, MAIL FROM and RCPT TO; returns the RCPT reply. */
  async envelope(from: string, to: string) {
    await this.reply()
    await this.command('EHLO client.example')
    await this.command(`MAIL FROM:<${from}>`)
    return this.command(`RCPT TO:<${to}>`)
  }

  end() {
    this.socket.destroy()
  }

  private read(text: string) {
    this.buffer += text
    let index = this.buffer.indexOf('\r\n')
    while (index >= 0) {
      const line = this.buffer.slice(0, index)
      this.buffer = this.buffer.slice(index + 2)
      this.lines.push(line)
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = this.lines.join('\n')
        this.lines = []
        const resolve = this.waiting.shift()
        if (resolve) resolve(reply)
        else this.replies.push(reply)
      }
      index = this.buffer.indexOf('\r\n')
    }
  }
}
