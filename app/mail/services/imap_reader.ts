import { ImapFlow } from 'imapflow'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { mailIntakeConfig } from '#config/mail_intake'
import { mailIntake, MAX_MESSAGE_BYTES, type IntakeReport } from '#mail/services/mail_intake'
import { mailDoors } from '#mail/services/mail_doors'
import { TimeLimitExceeded, withTimeLimit } from '#mail/services/time_limit'
import { mailDoorRefusals } from '#core/services/metrics'

export type ImapSettings = {
  host: string
  port: number
  secure: boolean
  user: string
  pass: string
  mailbox: string
  doneFolder: string
  /** Where a message the intake failed on, timed out on or could not take is moved. */
  quarantineFolder: string
}

/** The intake as the reader uses it (the real one unless a caller hands another). */
export type ImapIntake = Pick<typeof mailIntake, 'receive'>

export type ImapReaderOptions = {
  intake?: ImapIntake
  /** How long the intake may take over one message (MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS). */
  messageTimeoutMs?: number
}

/** Set on a message that could not be moved to quarantine, so no later read takes it again. */
const QUARANTINED_KEYWORD = '$DropslotQuarantined'

/** `imap://user:pass@host:143/INBOX` (or `imaps://`, port 993 by default). */
export function imapSettings(
  url: string,
  doneFolder = mailIntakeConfig().imapDoneFolder,
  quarantineFolder = mailIntakeConfig().imapQuarantineFolder
) {
  const parsed = new URL(url)
  if (parsed.protocol !== 'imap:' && parsed.protocol !== 'imaps:') {
    throw new Error('MAIL_INTAKE_IMAP_URL must be imap://user:password@host:port/INBOX or imaps://')
  }
  const secure = parsed.protocol === 'imaps:'
  return {
    host: parsed.hostname,
    port: Number(parsed.port || (secure ? 993 : 143)),
    secure,
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'INBOX',
    doneFolder,
    quarantineFolder,
  } satisfies ImapSettings
}

function client(settings: ImapSettings) {
  return new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.pass },
    logger: false,
    // A loopback test server has no certificate worth checking; anything else is checked.
    tls: { rejectUnauthorized: !['127.0.0.1', 'localhost', '::1'].includes(settings.host) },
  })
}

/**
 * The IMAP door: reads the catch-all mailbox, hands each message to the intake once and then
 * moves it to the done folder (MAIL_INTAKE_IMAP_DONE_FOLDER), so the next read never sees it
 * again. A message the intake throws on, takes longer than MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS
 * over, or that is over the size limit (not even fetched) is moved to the quarantine folder
 * (MAIL_INTAKE_IMAP_QUARANTINE_FOLDER), logged without its content and counted, and the read goes
 * on with the next: no message blocks the mailbox twice. `watch` keeps a connection
 * and waits in IDLE where the server offers it, polling every MAIL_INTAKE_IMAP_POLL_SECONDS
 * otherwise. Every read records the door's health (`mail_intake_state`).
 */
export class ImapReader {
  private intake: ImapIntake
  private messageTimeoutMs: number

  constructor(
    private settings: ImapSettings,
    options: ImapReaderOptions = {}
  ) {
    this.intake = options.intake ?? mailIntake
    this.messageTimeoutMs =
      options.messageTimeoutMs ?? mailIntakeConfig().messageTimeoutSeconds * 1000
  }

  /** One read of the mailbox: every message in it, handled and moved. */
  async readOnce(): Promise<IntakeReport[]> {
    const imap = client(this.settings)
    try {
      await imap.connect()
      const reports = await this.drain(imap)
      await mailDoors.ok('imap')
      return reports
    } catch (error) {
      await mailDoors.failed('imap', error)
      throw error
    } finally {
      await imap.logout().catch(() => imap.close())
    }
  }

  private async drain(imap: ImapFlow): Promise<IntakeReport[]> {
    await imap.mailboxCreate(this.settings.doneFolder).catch(() => null)
    await imap.mailboxCreate(this.settings.quarantineFolder).catch(() => null)
    const lock = await imap.getMailboxLock(this.settings.mailbox)
    const reports: IntakeReport[] = []
    try {
      const status = imap.mailbox
      if (!status || status.exists === 0) return reports
      // First only each message's uid, size and flags; its source is fetched when its turn comes.
      const messages: { uid: number; size: number }[] = []
      for await (const message of imap.fetch('1:*', { uid: true, size: true, flags: true })) {
        if (message.flags?.has(QUARANTINED_KEYWORD)) continue
        messages.push({ uid: message.uid, size: message.size ?? 0 })
      }
      for (const message of messages) {
        if (message.size > MAX_MESSAGE_BYTES) {
          await this.quarantine(imap, message.uid, 'too_large', message.size)
          continue
        }
        let report: IntakeReport
        try {
          const fetched = await imap.fetchOne(String(message.uid), { source: true }, { uid: true })
          // Gone meanwhile (another reader took it): nothing to do.
          if (!fetched || !fetched.source) continue
          report = await withTimeLimit(
            this.intake.receive(fetched.source, 'imap'),
            this.messageTimeoutMs
          )
        } catch (error) {
          // The mailbox or the database failing is not the message's fault: the read stops and
          // the message waits for the next one, as before.
          if (!imap.usable || !(await databaseAnswers())) throw error
          const reason = error instanceof TimeLimitExceeded ? 'timeout' : 'failed'
          await this.quarantine(imap, message.uid, reason, message.size, error)
          continue
        }
        reports.push(report)
        // Another reader (a second process) may have moved it first: it was handled either way,
        // and a message left behind is read again next time as a duplicate, then moved.
        await imap
          .messageMove(String(message.uid), this.settings.doneFolder, { uid: true })
          .catch(() => null)
      }
    } finally {
      lock.release()
    }
    return reports
  }

  /** Out of the mailbox for good: moved to quarantine, or marked so no read takes it again. */
  private async quarantine(
    imap: ImapFlow,
    uid: number,
    reason: 'failed' | 'timeout' | 'too_large',
    bytes: number,
    error?: unknown
  ) {
    const uidText = String(uid)
    const moved = await imap
      .messageMove(uidText, this.settings.quarantineFolder, { uid: true })
      .then((result) => Boolean(result))
      .catch(() => false)
    if (!moved) {
      await imap.messageFlagsAdd(uidText, [QUARANTINED_KEYWORD], { uid: true }).catch(() => null)
    }
    mailDoorRefusals.inc({ door: 'imap', reason })
    // The message's words stay out of the log: its uid, size and what went wrong only.
    logger.warn(
      {
        uid,
        bytes,
        reason,
        error: error instanceof Error ? error.name : undefined,
        folder: moved ? this.settings.quarantineFolder : null,
      },
      'mail intake: a message was quarantined'
    )
  }

  /**
   * Reads the mailbox until `signal` aborts: in IDLE (the server says when mail arrives) or by
   * polling. A lost connection is retried; the door's health says how long it has failed.
   */
  async watch(signal: AbortSignal, onReport?: (report: IntakeReport) => void) {
    const pollMs = mailIntakeConfig().imapPollSeconds * 1000
    while (!signal.aborted) {
      const imap = client(this.settings)
      try {
        await imap.connect()
        const idle = imap.capabilities.has('IDLE')
        while (!signal.aborted && imap.usable) {
          for (const report of await this.drain(imap)) onReport?.(report)
          await mailDoors.ok('imap')
          // In IDLE (imapflow idles on its own while the mailbox is selected) the server's
          // `exists` says a message arrived; without it, the next poll finds it.
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer)
              imap.off('exists', done)
              imap.off('close', done)
              signal.removeEventListener('abort', done)
              resolve()
            }
            const timer = setTimeout(done, idle ? Math.max(pollMs, 60_000) : pollMs)
            imap.on('exists', done)
            imap.on('close', done)
            signal.addEventListener('abort', done)
          })
        }
      } catch (error) {
        if (signal.aborted) break
        logger.warn({ err: error }, 'mail intake: the mailbox could not be read')
        await mailDoors.failed('imap', error).catch(() => null)
        await wait(Math.min(pollMs, 30_000), signal)
      } finally {
        await imap.logout().catch(() => imap.close())
      }
    }
  }
}

/** Whether the database answers at once (a failure of the intake's own, not the message's). */
async function databaseAnswers() {
  try {
    await withTimeLimit(db.rawQuery('select 1'), 5000)
    return true
  } catch {
    return false
  }
}

function wait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}

/** The reader of MAIL_INTAKE_IMAP_URL, or null when none is set. */
export function configuredImapReader(): ImapReader | null {
  const url = mailIntakeConfig().imapUrl
  return url ? new ImapReader(imapSettings(url)) : null
}
