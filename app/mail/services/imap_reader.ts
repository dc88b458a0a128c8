import { ImapFlow } from 'imapflow'
import logger from '@adonisjs/core/services/logger'
import { mailIntakeConfig } from '#config/mail_intake'
import { mailIntake, type IntakeReport } from '#mail/services/mail_intake'
import { mailDoors } from '#mail/services/mail_doors'

export type ImapSettings = {
  host: string
  port: number
  secure: boolean
  user: string
  pass: string
  mailbox: string
  doneFolder: string
}

/** `imap://user:pass@host:143/INBOX` (or `imaps://`, port 993 by default). */
export function imapSettings(url: string, doneFolder = mailIntakeConfig().imapDoneFolder) {
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
 * again; a message the intake could not read stays for the next one. `watch` keeps a connection
 * and waits in IDLE where the server offers it, polling every MAIL_INTAKE_IMAP_POLL_SECONDS
 * otherwise. Every read records the door's health (`mail_intake_state`).
 */
export class ImapReader {
  constructor(private settings: ImapSettings) {}

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
    const lock = await imap.getMailboxLock(this.settings.mailbox)
    const reports: IntakeReport[] = []
    try {
      const status = imap.mailbox
      if (!status || status.exists === 0) return reports
      const messages: { uid: number; source: Buffer }[] = []
      for await (const message of imap.fetch('1:*', { uid: true, source: true })) {
        if (message.source) messages.push({ uid: message.uid, source: message.source })
      }
      for (const message of messages) {
        const report = await mailIntake.receive(message.source, 'imap')
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

function wait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** The reader of MAIL_INTAKE_IMAP_URL, or null when none is set. */
export function configuredImapReader(): ImapReader | null {
  const url = mailIntakeConfig().imapUrl
  return url ? new ImapReader(imapSettings(url)) : null
}
