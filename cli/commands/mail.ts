import type { Command } from 'commander'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { untilStopSignal } from '#core/services/stop_signal'
import { bootApp } from '../app.js'
import { printResult, printTable, UsageError } from '../output.js'

export function registerMailCommands(program: Command) {
  program
    .command('mail:import')
    .description(
      'Read retailer e-mails from .eml files through the mail intake (the same path as the ' +
        'mailbox and the SMTP listener): a verified confirmation succeeds its order, a ' +
        'cancellation refunds it, anything unverified goes to review. --json: one line per message'
    )
    .argument('<files...>', '.eml files (RFC 822 messages)')
    .action(async (files: string[]) => {
      const raws: { file: string; raw: Buffer }[] = []
      for (const file of files) {
        try {
          raws.push({ file, raw: await readFile(file) })
        } catch {
          throw new UsageError(`Cannot read ${file}.`)
        }
      }
      await bootApp()
      const { mailIntake, MAX_MESSAGE_BYTES } = await import('#mail/services/mail_intake')
      const tooLarge = raws.find(({ raw }) => raw.length > MAX_MESSAGE_BYTES)
      if (tooLarge) {
        throw new UsageError(
          `${tooLarge.file} is ${tooLarge.raw.length} bytes; the mail intake reads messages of at most ${MAX_MESSAGE_BYTES} bytes. Nothing was imported.`
        )
      }
      const json = Boolean(program.opts().json)
      const rows = []
      for (const { file, raw } of raws) {
        const report = await mailIntake.receive(raw, 'file')
        const line = {
          file,
          messageId: report.messageId,
          retailer: report.retailer,
          kind: report.kind,
          orderId: report.orderId,
          dkim: report.dkim,
          action: report.action,
          reason: report.reason,
        }
        if (json) process.stdout.write(`${JSON.stringify(line)}\n`)
        rows.push({ ...line, file: basename(file) })
      }
      if (!json) {
        for (const line of printTable(
          rows.map((row) => ({
            file: row.file,
            retailer: row.retailer ?? '-',
            kind: row.kind,
            order: row.orderId ?? '-',
            dkim: row.dkim,
            action: row.action,
            reason: row.reason ?? '',
          }))
        )) {
          process.stdout.write(`${line}\n`)
        }
      }
    })

  program
    .command('mail:status')
    .description('The mail intake: its doors, the messages of the last 24 hours, the review list')
    .action(async () => {
      await bootApp()
      const { mailStatus } = await import('#mail/services/mail_status')
      const status = await mailStatus.summary()
      printResult(program.opts(), { success: true, ...status }, [
        status.domain
          ? `Intake domain: ${status.domain}`
          : 'Mail intake is off (MAIL_INTAKE_DOMAIN is not set).',
        `Doors: IMAP ${status.imap}, SMTP ${status.smtp}`,
        ...status.doors.map(
          (door) =>
            `  ${door.door}: ${door.unreadable ? 'UNREADABLE' : door.failingSince ? 'failing' : 'ok'}` +
            (door.lastOkAt ? `, last read ${door.lastOkAt}` : '') +
            (door.lastError ? ` (${door.lastError})` : '')
        ),
        `Last 24 h: ${
          Object.entries(status.last24h)
            .map(([action, count]) => `${count} ${action}`)
            .join(', ') || 'no message'
        }`,
        `Waiting in review: ${status.inReview}`,
        ...(status.awaitingMailOverdue.length
          ? [
              `Bot successes still without the retailer's e-mail after SUCCESS_EVIDENCE_WAIT_HOURS: ${status.awaitingMailOverdue.join(', ')}`,
            ]
          : []),
      ])
    })

  program
    .command('mail:demo')
    .description(
      'Demo only: write Kith e-mails for the demo release (signed with a demo key) into a ' +
        'folder: a confirmation, a confirmation and a cancellation of another order, and two ' +
        'forged copies; import them with mail:import (MAIL_INTAKE_DNS_FILE must name the ' +
        "folder's dkim.json). Refused in production"
    )
    .option('--out <dir>', 'where to write the files', 'tmp/mail-demo')
    .action(async (options: { out: string }) => {
      await bootApp()
      const { default: app } = await import('@adonisjs/core/services/app')
      if (app.inProduction) throw new UsageError('mail:demo is for demo installs only.')
      const { mailIntakeConfig } = await import('#config/mail_intake')
      if (!mailIntakeConfig().domain) throw new UsageError('Set MAIL_INTAKE_DOMAIN first.')
      const { DEMO_RELEASE } = await import('#database/seeders/demo_seeder')
      const { productQueries } = await import('#catalog/services/product_queries')
      const { releaseOrderQueries } = await import('#orders/services/order_queries')
      const { writeDemoMail } = await import('#mail/services/demo_mail')
      const product = await productQueries.findBySlug(DEMO_RELEASE.slug)
      if (!product) throw new UsageError('No demo release: run `node ace db:seed` first.')
      const orders = await releaseOrderQueries.withStatuses(['processing'], product.id)
      if (orders.length < 2) {
        throw new UsageError(
          'The demo release needs two orders handed to the checkout bot: run ' +
            '`CHECKOUT_ENGINE=files npx dropslot release:run` first.'
        )
      }
      const { resolve } = await import('node:path')
      const written = await writeDemoMail(options.out, orders[0], orders[1])
      const { orderNumber } = await import('#orders/services/order_numbers')
      printResult(
        program.opts(),
        {
          success: true,
          confirmed: orders[0].publicId,
          cancelled: orders[1].publicId,
          ...written,
        },
        [
          `Wrote ${written.files.length} e-mails for orders ${orderNumber(orders[0].id)} (confirmed) and ${orderNumber(orders[1].id)} (confirmed, then cancelled by the retailer):`,
          ...written.files.map((file) => `  ${file}`),
          `Trust the demo keys: MAIL_INTAKE_DNS_FILE=${resolve(written.dnsFile)}`,
          `Then: npx dropslot mail:import ${written.files.join(' ')}`,
        ]
      )
    })

  program
    .command('mail:listen')
    .description(
      'Run the intake doors in the foreground: the inbound SMTP listener (MAIL_INTAKE_SMTP_PORT) ' +
        'and the IMAP reader of MAIL_INTAKE_IMAP_URL in IDLE, until stopped'
    )
    .action(async () => {
      await bootApp()
      const { mailIntakeConfig } = await import('#config/mail_intake')
      const { startSmtpListener } = await import('#mail/services/smtp_listener')
      const { configuredImapReader } = await import('#mail/services/imap_reader')
      const config = mailIntakeConfig()
      if (!config.domain) throw new UsageError('Set MAIL_INTAKE_DOMAIN first.')
      const reader = configuredImapReader()
      if (!config.smtpPort && !reader) {
        throw new UsageError('Set MAIL_INTAKE_SMTP_PORT or MAIL_INTAKE_IMAP_URL (or both).')
      }
      const stop = new AbortController()
      // A signal lets the message being read finish before the application closes.
      void untilStopSignal().then(() => stop.abort())
      const print = (report: { action: string; kind: string; orderId: string | null }) =>
        process.stdout.write(`${report.action} ${report.kind} ${report.orderId ?? '-'}\n`)
      const smtp = config.smtpPort
        ? await startSmtpListener({
            port: config.smtpPort,
            host: config.smtpHost,
            onMessage: print,
          })
        : null
      if (smtp) process.stdout.write(`SMTP listener on port ${smtp.port}\n`)
      const watching = reader ? reader.watch(stop.signal, print) : Promise.resolve()
      if (reader) process.stdout.write('Reading the mailbox (IMAP)\n')
      if (!stop.signal.aborted) {
        await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()))
      }
      await watching
      await smtp?.close()
    })
}
