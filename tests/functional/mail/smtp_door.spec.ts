import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import { clock } from '#core/services/clock'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { startSmtpListener, clientKey, type SmtpLimits } from '#mail/services/smtp_listener'
import { releasedProductWithOrders } from '#tests/support/release'
import { INTAKE_DOMAIN, useMailIntake } from '#tests/support/mail'
import { RawSmtp } from '#tests/support/smtp_client'

/** An address the door takes without an order (MAIL_INTAKE_CATCH_ALL). */
const CATCH_ALL = `postmaster@${INTAKE_DOMAIN}`
const SENDER = 'bounce@official.nike.com'

type Listener = Awaited<ReturnType<typeof startSmtpListener>>

async function listen(limits: Partial<SmtpLimits> = {}) {
  return startSmtpListener({ port: 0, host: '127.0.0.1', limits: { closeMs: 200, ...limits } })
}

/** `megabytes` of 1000-byte lines into an open DATA, as fast as the socket takes them. */
async function pour(client: RawSmtp, megabytes: number) {
  const line = `${'x'.repeat(998)}\r\n`
  const chunk = Buffer.from(line.repeat(64))
  let sent = 0
  while (sent < megabytes * 1024 * 1024 && !client.socket.destroyed) {
    await client.write(chunk)
    sent += chunk.length
  }
  return sent
}

/** Resolves with how the connection ended, or 'still open' after `ms` (a deadline, not a sleep). */
function endsWithin(client: RawSmtp, ms: number) {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('still open'), ms)
  })
  return Promise.race([client.closed.then(() => 'closed'), deadline]).finally(() =>
    clearTimeout(timer)
  )
}

test.group('Mail intake: the SMTP door holds hostile clients to its limits', (group) => {
  let listener: Listener | null = null
  const clients: RawSmtp[] = []
  const connect = async (port = listener!.port) => {
    const client = await RawSmtp.connect(port)
    clients.push(client)
    return client
  }
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    env.set('MAIL_INTAKE_CATCH_ALL', CATCH_ALL)
    return async () => {
      for (const client of clients.splice(0)) client.end()
      await listener?.close()
      listener = null
      env.set('MAIL_INTAKE_DOMAIN', '')
      env.set('MAIL_INTAKE_CATCH_ALL', '')
    }
  })

  test('a message over the size limit is read off the socket and thrown away, then answered 552', async ({
    assert,
  }) => {
    listener = await listen({ maxBytes: 64 * 1024 })
    const client = await connect()
    assert.match(await client.envelope(SENDER, CATCH_ALL), /^250 /)
    assert.match(await client.command('DATA'), /^354 /)
    const sent = await pour(client, 8)
    assert.match(await client.command('\r\n.'), /^552 /)
    // The door kept at most its limit of the 8 MB in memory, never the message.
    assert.isAtMost(listener.stats().peakHeldBytes, 64 * 1024)
    assert.isAbove(sent, 100 * listener.stats().peakHeldBytes)
    assert.equal(listener.stats().refused.size, 1)
    // The same connection goes on.
    assert.match(await client.command('QUIT'), /^221 /)
  })

  test('a second client is greeted while a first one is still pouring a large message', async ({
    assert,
  }) => {
    listener = await listen({ maxBytes: 64 * 1024 })
    const first = await connect()
    await first.envelope(SENDER, CATCH_ALL)
    assert.match(await first.command('DATA'), /^354 /)
    await pour(first, 2)
    const second = await connect()
    assert.match(await second.reply(), /^220 /)
    await pour(first, 2)
    assert.match(await first.command('\r\n.'), /^552 /)
  })

  test('more clients than MAIL_INTAKE_SMTP_MAX_CLIENTS at once are told 421', async ({
    assert,
  }) => {
    listener = await listen({ maxClients: 2 })
    const [one, two] = [await connect(), await connect()]
    assert.match(await one.reply(), /^220 /)
    assert.match(await two.reply(), /^220 /)
    const three = await connect()
    assert.match(await three.reply(), /^421 .*Too many connected clients/)
    assert.equal(await endsWithin(three, 2000), 'closed')
  })

  test('a client address over its rate a minute is told 421 until the minute has passed', async ({
    assert,
  }) => {
    listener = await listen({ ratePerMinute: 3 })
    const client = await connect()
    assert.match(await client.reply(), /^220 /)
    await client.command('EHLO client.example')
    assert.match(await client.command(`MAIL FROM:<${SENDER}>`), /^250 /)
    await client.command('RSET')
    assert.match(await client.command(`MAIL FROM:<${SENDER}>`), /^250 /)
    await client.command('RSET')
    assert.match(await client.command(`MAIL FROM:<${SENDER}>`), /^421 .*Too many messages/)
    assert.equal(await endsWithin(client, 2000), 'closed')
    const again = await connect()
    assert.match(await again.reply(), /^421 .*Too many connections/)
    assert.equal(listener.stats().refused.rate, 2)
    // A minute later on the product clock, the address is welcome again.
    clock.travel(61_000)
    const later = await connect()
    assert.match(await later.reply(), /^220 /)
  })

  test('the rate is kept per IPv4 address and per IPv6 /64', ({ assert }) => {
    assert.equal(clientKey('::ffff:192.0.2.7'), '192.0.2.7')
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
    assert.equal(clientKey('2001:db8:1:2::ffff'), '2001:db8:1:2::/64')
    assert.equal(clientKey('::1'), '0:0:0:0::/64')
  })

  test('RCPT takes an order intake address or the catch-all only: an unknown one is refused 550', async ({
    assert,
  }) => {
    const { orders } = await releasedProductWithOrders(1)
    const address = (await orderMailAddress.ensure(orders[0]))!
    listener = await listen()
    const client = await connect()
    assert.match(await client.envelope(SENDER, address), /^250 /)
    assert.match(await client.command(`RCPT TO:<ds-unknown7k3q9x@${INTAKE_DOMAIN}>`), /^550 /)
    assert.match(await client.command(`RCPT TO:<nobody@${INTAKE_DOMAIN}>`), /^550 /)
    assert.match(await client.command(`RCPT TO:<${CATCH_ALL.toUpperCase()}>`), /^250 /)
    assert.match(await client.command('RCPT TO:<victim@example.org>'), /^550 .*Relay denied/)
    assert.equal(listener.stats().refused.recipient, 2)
  })

  test('a silent client and one that never stops talking are both let go', async ({ assert }) => {
    listener = await listen({ idleMs: 200, sessionMs: 400 })
    const silent = await connect()
    assert.match(await silent.reply(), /^220 /)
    assert.equal(await endsWithin(silent, 3000), 'closed')

    listener.close().catch(() => null)
    listener = await listen({ idleMs: 60_000, sessionMs: 400 })
    const chatty = await connect()
    assert.match(await chatty.reply(), /^220 /)
    const talking = setInterval(() => void chatty.command('NOOP'), 50)
    try {
      assert.equal(await endsWithin(chatty, 3000), 'closed')
    } finally {
      clearInterval(talking)
    }
  })

  test('clients that cut the connection mid-message do not bring the door down', async ({
    assert,
  }) => {
    listener = await listen()
    for (let round = 0; round < 3; round++) {
      const client = await connect()
      await client.envelope(SENDER, CATCH_ALL)
      assert.match(await client.command('DATA'), /^354 /)
      await new Promise((resolve) => client.socket.write('Subject: cut\r\n\r\nhalf', resolve))
      // The door reads the half message first; the reset then arrives in the transaction.
      await new Promise((resolve) => setTimeout(resolve, 50))
      client.socket.resetAndDestroy()
      await client.closed
    }
    const next = await connect()
    assert.match(await next.reply(), /^220 /)
    assert.match(await next.command('QUIT'), /^221 /)
  })
})
