import { test } from '@japa/runner'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import EmailMessage from '#notifications/models/email_message'
import { emailDelivery } from '#notifications/services/email_delivery'
import { SmtpSink } from '#tests/support/smtp_sink'
import {
  releasedProductWithOrders,
  removeCommittedReleaseData,
  sandboxSnapshot,
} from '#tests/support/release'
import { runCli } from '#tests/support/cli'

const SMTP_PORT = env.get('SMTP_PORT', 2526)

async function cleanUp() {
  await removeCommittedReleaseData('outboxw-')
  await EmailMessage.query().delete()
}

test.group('Outbox: the writer does not decide who delivers', (group) => {
  let restoreSandbox: () => Promise<void>
  group.each.setup(async () => {
    await cleanUp()
    restoreSandbox = await sandboxSnapshot()
  })
  group.each.teardown(async () => {
    await cleanUp()
    await restoreSandbox()
  })

  test('an e-mail written by a process without SMTP is delivered by one with it', async ({
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1, { emailPrefix: 'outboxw-' })
    await EmailMessage.query().delete()

    // The CLI runs with the same settings minus SMTP; the web process (this one) has them.
    const settings = await readFile(app.makePath('.env.test'), 'utf8')
    const envDir = await mkdtemp(join(tmpdir(), 'dropslot-no-smtp-'))
    await writeFile(
      join(envDir, '.env.test'),
      settings
        .split('\n')
        .filter((line) => !line.startsWith('SMTP_'))
        .join('\n')
    )
    const resent = await runCli(['emails:resend', '--order', orders[0].publicId], {
      ENV_PATH: envDir,
      // Not inherited from this process either (an undefined value is left out of the child's env).
      SMTP_HOST: undefined as unknown as string,
    }).finally(() => rm(envDir, { recursive: true, force: true }))
    assert.equal(resent.code, 0, resent.stderr)
    const written = await EmailMessage.query().where('order_id', orders[0].id)
    assert.lengthOf(written, 1)
    assert.equal(written[0].status, 'queued')

    const sink = new SmtpSink()
    await sink.listen(SMTP_PORT)
    try {
      const result = await emailDelivery.deliverDue()
      assert.equal(result.sent, 1)
    } finally {
      await sink.close()
    }
    await written[0].refresh()
    assert.equal(written[0].status, 'sent')
  })
})
