import { SMTPServer } from 'smtp-server'
import logger from '@adonisjs/core/services/logger'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { mailIntake, type IntakeReport } from '#mail/services/mail_intake'
import { mailDoors } from '#mail/services/mail_doors'

/** The largest message taken (retailers' notifications are far smaller). */
const MAX_BYTES = 5 * 1024 * 1024

/**
 * The inbound SMTP door, for installs that point MAIL_INTAKE_DOMAIN's MX at Dropslot
 * (MAIL_INTAKE_SMTP_PORT). It takes mail only for the intake domain, reads each message through
 * the intake before answering (so a 250 means it was handled or kept for review), and never asks
 * for a login: the DKIM signature, not the sender, is what is trusted.
 */
export function startSmtpListener(options: {
  port: number
  host?: string
  onMessage?: (report: IntakeReport) => void
}) {
  const server = new SMTPServer({
    name: 'dropslot-intake',
    banner: 'Dropslot mail intake',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_BYTES,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!orderMailAddress.isIntakeAddress(address.address)) {
        const error = new Error('Relay denied: this server takes mail for the intake domain only')
        ;(error as Error & { responseCode: number }).responseCode = 550
        return callback(error)
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          const error = new Error('Message too large')
          ;(error as Error & { responseCode: number }).responseCode = 552
          return callback(error)
        }
        mailIntake
          .receive(Buffer.concat(chunks), 'smtp', {
            to: session.envelope.rcptTo.map((item) => item.address),
            ip: session.remoteAddress,
          })
          .then(async (report) => {
            await mailDoors.ok('smtp')
            options.onMessage?.(report)
            callback(null, `Queued as ${report.id}`)
          })
          .catch(async (error) => {
            logger.error({ err: error }, 'mail intake: an SMTP message could not be read')
            await mailDoors.failed('smtp', error).catch(() => null)
            const answer = new Error('Temporary failure, try again later')
            ;(answer as Error & { responseCode: number }).responseCode = 451
            callback(answer)
          })
      })
    },
  })
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      const address = server.server.address()
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}
