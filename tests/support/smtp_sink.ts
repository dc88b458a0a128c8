import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { from: string; to: string[]; raw: string }

/** A real SMTP server on loopback that keeps what it receives, for e-mail tests. */
export class SmtpSink {
  received: ReceivedMail[] = []
  private server: SMTPServer

  constructor(options: { rejectWith?: () => string | null } = {}) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const rejection = options.rejectWith?.()
          if (rejection) {
            callback(Object.assign(new Error(rejection), { responseCode: 451 }))
            return
          }
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          })
          callback()
        })
      },
    })
  }

  listen(port: number) {
    return new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(port, '127.0.0.1', () => resolve())
    })
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
