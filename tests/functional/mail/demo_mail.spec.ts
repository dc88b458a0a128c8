import { test } from '@japa/runner'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import { writeDemoMail } from '#mail/services/demo_mail'
import { readMessage } from '#mail/services/mail_reading'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { orderQueries } from '#orders/services/order_queries'
import { releaseConfig } from '#release/services/release_config'
import { pendingOrder } from '#tests/helpers'

/** An order as the demo reads it, its intake address already given out. */
async function demoOrder() {
  const { order } = await pendingOrder()
  await orderMailAddress.ensure(order)
  return (await orderQueries.find(order.id))!
}

/**
 * `Date.now()` one second later at every call while `work` runs: a signer that reads the clock
 * twice for one signature (its `t=` tag) writes another time than it signed.
 */
async function withTheSecondTurningAtEveryRead<T>(work: () => Promise<T>): Promise<T> {
  const realNow = Date.now
  let now = realNow()
  Date.now = () => (now += 1000)
  try {
    return await work()
  } finally {
    Date.now = realNow
  }
}

test.group('mail:demo: the demo retailer’s e-mails', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => {
    env.set('MAIL_INTAKE_DOMAIN', 'in.dropslot.test')
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test('every message it signs verifies, even when the second turns while it signs', async ({
    assert,
    cleanup,
  }) => {
    const [confirmed, cancelled] = [await demoOrder(), await demoOrder()]
    const directory = await mkdtemp(join(releaseConfig().filesDir, 'demo-mail-'))
    cleanup(() => rm(directory, { recursive: true, force: true }))

    await withTheSecondTurningAtEveryRead(() => writeDemoMail(directory, confirmed, cancelled))

    env.set('MAIL_INTAKE_DNS_FILE', join(directory, 'dkim.json'))
    const signers: Record<string, string> = {}
    const files = await readdir(directory)
    for (const name of files.filter((file) => file.endsWith('.eml'))) {
      const reading = await readMessage(await readFile(join(directory, name)), {})
      signers[name] = `${reading.dkim} ${reading.passing.map((item) => item.domain).join(',')}`
    }
    assert.deepEqual(signers, {
      '1-confirmation.eml': 'pass kith.com',
      '2-confirmation-second.eml': 'pass kith.com',
      '3-cancellation-second.eml': 'pass kith.com',
      '4-forged-confirmation-unsigned.eml': 'none ',
      '5-forged-cancellation-other-domain.eml': 'pass kith-orders.example',
    })
  }).timeout(30_000)
})
