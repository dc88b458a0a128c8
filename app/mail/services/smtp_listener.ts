import { isIPv4 } from 'node:net'
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server'
import logger from '@adonisjs/core/services/logger'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { mailIntake, MAX_MESSAGE_BYTES, type IntakeReport } from '#mail/services/mail_intake'
import { mailDoors } from '#mail/services/mail_doors'
import { withTimeLimit } from '#mail/services/time_limit'
import { mailIntakeConfig } from '#config/mail_intake'
import { clock } from '#core/services/clock'
import { mailDoorRefusals } from '#core/services/metrics'

/** What one SMTP door takes from the network (MAIL_INTAKE_SMTP_* in config/mail_intake.ts). */
export type SmtpLimits = {
  /** The largest message kept; the rest of a larger one is read and thrown away, then 552. */
  maxBytes: number
  /** Clients connected at once (one more gets 421). */
  maxClients: number
  /** Connections plus messages one client address (an IPv6 /64) may start in a minute. */
  ratePerMinute: number
  /** A client silent this long is disconnected. */
  idleMs: number
  /** A connection is cut this long after it opened, however busy (a trickling sender). */
  sessionMs: number
  /** How long the intake may take over one message before the sender is told 451. */
  messageTimeoutMs: number
  /** On close, how long open connections may finish before they are told 421. */
  closeMs: number
  /** Recipients of one message. */
  maxRecipients: number
}

export function smtpLimits(): SmtpLimits {
  const config = mailIntakeConfig()
  return {
    maxBytes: MAX_MESSAGE_BYTES,
    maxClients: config.smtpMaxClients,
    ratePerMinute: config.smtpRatePerMinute,
    idleMs: config.smtpIdleSeconds * 1000,
    sessionMs: 10 * 60_000,
    messageTimeoutMs: config.messageTimeoutSeconds * 1000,
    closeMs: 5000,
    maxRecipients: 10,
  }
}

/** What the door did (`stats()`): the most bytes it held for one message, and its refusals. */
export type SmtpDoorStats = { peakHeldBytes: number; refused: Record<string, number> }

type SmtpError = Error & { responseCode: number }
function smtpError(code: number, message: string): SmtpError {
  return Object.assign(new Error(message), { responseCode: code })
}

/** The address a rate is kept for: an IPv4 address, or an IPv6 address's /64. */
export function clientKey(remote: string): string {
  const ip = remote.replace(/%.*$/, '')
  const v4 = ip.replace(/^::ffff:/i, '')
  if (isIPv4(v4)) return v4
  const [head, tail] = ip.toLowerCase().split('::')
  const front = head ? head.split(':') : []
  const back = tail ? tail.split(':') : []
  const groups = [
    ...front,
    ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'),
    ...back,
  ]
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`
}

/** At most `limit` events per client address in a sliding minute of the product clock. */
class AddressRate {
  private seen = new Map<string, number[]>()
  constructor(
    private limit: number,
    private windowMs = 60_000,
    private maxAddresses = 10_000
  ) {}

  take(key: string): boolean {
    const now = clock.nowMs()
    const recent = (this.seen.get(key) ?? []).filter((at) => now - at < this.windowMs)
    this.seen.delete(key)
    if (recent.length >= this.limit) {
      this.seen.set(key, recent)
      return false
    }
    recent.push(now)
    this.seen.set(key, recent)
    // The map is in last-seen order: the quietest addresses go first when it is full.
    while (this.seen.size > this.maxAddresses) this.seen.delete(this.seen.keys().next().value!)
    return true
  }
}

type Refuse = (reason: string, code: number, message: string) => SmtpError

/** Mail only for an existing order's intake address (or a catch-all): never a relay. */
function acceptRecipient(
  address: SMTPServerAddress,
  refuse: Refuse,
  callback: (error?: Error | null) => void
) {
  const to = address.address.trim().toLowerCase()
  if (mailIntakeConfig().catchAll.includes(to)) return callback()
  if (!orderMailAddress.isIntakeAddress(to)) {
    return callback(
      refuse('relay', 550, 'Relay denied: this server takes mail for the intake domain only')
    )
  }
  orderMailAddress
    .exists(to)
    .then((known) =>
      callback(known ? undefined : refuse('recipient', 550, 'No such intake address'))
    )
    .catch((error) => {
      logger.error({ err: error }, 'mail intake: an SMTP recipient could not be looked up')
      callback(smtpError(451, 'Temporary failure, try again later'))
    })
}

/**
 * Holds the message up to the size limit, then answers once the intake has read it (or the
 * time limit is over).
 */
function readMessage(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  callback: (error?: Error | null, message?: string) => void,
  door: {
    limits: SmtpLimits
    stats: SmtpDoorStats
    refuse: Refuse
    onMessage?: (report: IntakeReport) => void
  }
) {
  const { limits, stats, refuse } = door
  const chunks: Buffer[] = []
  let held = 0
  let oversized = false
  stream.on('data', (chunk: Buffer) => {
    if (oversized) return
    if (stream.sizeExceeded || held + chunk.length > limits.maxBytes) {
      // Past the limit nothing more is kept: the rest is read off the socket and dropped.
      oversized = true
      chunks.length = 0
      held = 0
      return
    }
    chunks.push(chunk)
    held += chunk.length
    stats.peakHeldBytes = Math.max(stats.peakHeldBytes, held)
  })
  stream.on('end', () => {
    if (oversized || stream.sizeExceeded) {
      return callback(refuse('size', 552, 'Message too large'))
    }
    const reading = mailIntake.receive(Buffer.concat(chunks, held), 'smtp', {
      to: session.envelope.rcptTo.map((item) => item.address),
      ip: session.remoteAddress,
    })
    chunks.length = 0
    withTimeLimit(reading, limits.messageTimeoutMs)
      .then(async (report) => {
        await mailDoors.ok('smtp')
        door.onMessage?.(report)
        callback(null, `Queued as ${report.id}`)
      })
      .catch(async (error) => {
        logger.error({ err: error }, 'mail intake: an SMTP message could not be read')
        await mailDoors.failed('smtp', error).catch(() => null)
        callback(refuse('failed', 451, 'Temporary failure, try again later'))
      })
  })
}

/**
 * The inbound SMTP door, for installs that point MAIL_INTAKE_DOMAIN's MX at Dropslot
 * (MAIL_INTAKE_SMTP_PORT). It takes mail only for the intake address of an existing order (or
 * MAIL_INTAKE_CATCH_ALL), reads each message through the intake before answering (so a 250 means
 * it was handled or kept for review), and never asks for a login: the DKIM signature, not the
 * sender, is what is trusted. Until then everything about the sender is hostile, so the door caps
 * it: the message size (the rest of a larger one is thrown away as it arrives, then 552), the
 * clients at once, connections and messages per client address a minute (421), silence, the
 * length of a connection and the intake's time over one message (451).
 */
export function startSmtpListener(options: {
  port: number
  host?: string
  onMessage?: (report: IntakeReport) => void
  limits?: Partial<SmtpLimits>
}) {
  const limits = { ...smtpLimits(), ...options.limits }
  const rate = new AddressRate(limits.ratePerMinute)
  const stats: SmtpDoorStats = { peakHeldBytes: 0, refused: {} }
  const refuse: Refuse = (reason, code, message) => {
    stats.refused[reason] = (stats.refused[reason] ?? 0) + 1
    mailDoorRefusals.inc({ door: 'smtp', reason })
    return smtpError(code, message)
  }
  const overRate = (session: SMTPServerSession) => !rate.take(clientKey(session.remoteAddress))

  const server = new SMTPServer({
    name: 'dropslot-intake',
    banner: 'Dropslot mail intake',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    size: limits.maxBytes,
    rejectOversized: true,
    maxClients: limits.maxClients,
    maxRecipients: limits.maxRecipients,
    socketTimeout: limits.idleMs,
    closeTimeout: limits.closeMs,
    logger: false,
    onConnect(session, callback) {
      if (overRate(session)) {
        return callback(refuse('rate', 421, 'Too many connections from your address, try later'))
      }
      callback()
    },
    onMailFrom(_address, session, callback) {
      if (overRate(session)) {
        return callback(refuse('rate', 421, 'Too many messages from your address, try later'))
      }
      callback()
    },
    onRcptTo(address, _session, callback) {
      acceptRecipient(address, refuse, callback)
    },
    onData(stream, session, callback) {
      readMessage(stream, session, callback, {
        limits,
        stats,
        refuse,
        onMessage: options.onMessage,
      })
    },
  })
  // However busy a connection keeps itself (a byte now and then resets the idle timer), it ends.
  server.server.on('connection', (socket) => {
    const timer = setTimeout(() => socket.destroy(), limits.sessionMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
  return new Promise<{ port: number; close: () => Promise<void>; stats: () => SmtpDoorStats }>(
    (resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port, options.host ?? '0.0.0.0', () => {
        server.off('error', reject)
        // A client's socket error (a reset in the middle of a message) is the client's problem:
        // logged, never left to end the process as an unhandled 'error' event.
        server.on('error', (error: Error & { code?: string }) =>
          logger.warn({ code: error.code }, 'mail intake: an SMTP client connection failed')
        )
        const address = server.server.address()
        resolve({
          port: typeof address === 'object' && address ? address.port : options.port,
          close: () => new Promise<void>((done) => server.close(() => done())),
          stats: () => ({ peakHeldBytes: stats.peakHeldBytes, refused: { ...stats.refused } }),
        })
      })
    }
  )
}
