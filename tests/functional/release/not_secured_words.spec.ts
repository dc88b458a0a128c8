import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { releaseRunner } from '#release/services/release_runner'
import { releaseReports } from '#release/services/release_report'
import { plannedRelease } from '#tests/support/report'

const MINE = 'Not secured: sold out. Nothing charged; your $1.00 check was released.'
const THEIRS = 'Not secured: sold out. Nothing charged; the $1.00 check was released.'

/*
| A failed order was never charged, so nothing about it says "Refunded": its e-mail, its line on
| the orders page and the public release report say what happened and that nothing was charged,
| in the same words.
*/
test.group('A failed order in the same words everywhere', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(() => releaseReports.forget())

  test('sold out: the e-mail, the orders page and the report say Not secured, nothing charged', async ({
    client,
    assert,
  }) => {
    const release = await plannedRelease([
      { size: '9', result: 'sold_out' },
      { size: '10', result: 'success' },
    ])
    const run = await releaseRunner.run({ productId: release.product.id, engine: release.engine })
    assert.equal(run.status, 'finished')
    const [lost] = release.orders
    const [buyer] = release.customers

    const [mail] = await db
      .from('email_messages')
      .where('order_id', lost.id)
      .where('template', 'order_failed')
    assert.include(mail.text_body, MINE)
    assert.include(mail.html_body, MINE)
    assert.notInclude(mail.text_body, 'Refunded')

    const orders = await client.get('/api/user/orders').bearerToken(buyer.token)
    orders.assertStatus(200)
    const [order] = orders.body()
    assert.equal(order.status, 'fail')
    assert.equal(order.statusLabel, 'Not secured')
    assert.equal(order.outcomeWords, MINE)
    assert.equal(order.fee.status, 'none')

    const visitor = await client.get(`/api/releases/${release.product.id}/report`)
    visitor.assertStatus(200)
    const failed = visitor.body().lines.filter((line: any) => line.outcome === 'failed')
    assert.deepEqual(
      failed.map((line: any) => line.words),
      [THEIRS]
    )
    const succeeded = visitor.body().lines.find((line: any) => line.outcome === 'succeeded')
    assert.isNull(succeeded.words)
    assert.notInclude(JSON.stringify(visitor.body()), 'Refunded')

    const own = await client
      .get(`/api/releases/${release.product.id}/report`)
      .bearerToken(buyer.token)
    const mine = own.body().lines.filter((line: any) => line.mine)
    assert.deepEqual(
      mine.map((line: any) => line.words),
      [MINE]
    )
  })
})
