import { test } from '@japa/runner'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import Product from '#catalog/models/product'
import { orderMailAddress } from '#orders/services/order_mail_address'
import { mailIntake } from '#mail/services/mail_intake'
import { adminWithToken, customerWithToken } from '#tests/helpers'
import {
  retailerMail,
  sign,
  SIGNING_DOMAINS,
  useMailIntake,
  ordersAtTheBot,
} from '#tests/support/mail'
import { productBody } from '../admin/fixtures.js'
import { importProducts } from '#catalog/services/product_import'
import { writeFile } from 'node:fs/promises'

const submitted = (count: number, retailer = 'kith') =>
  ordersAtTheBot(count, { retailer, priceCents: 2200 }).then(({ orders }) => orders)

test.group('Mail intake: the console’s Mail page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    await useMailIntake()
    return () => env.set('MAIL_INTAKE_DOMAIN', '')
  })

  test('the order shows its own address and its e-mails; messages are listed with their evidence', async ({
    client,
    assert,
  }) => {
    const [order] = await submitted(1)
    const to = orderMailAddress.of(order)!
    await mailIntake.receive(
      await sign(await retailerMail({ retailer: 'kith', kind: 'confirmation', to }), 'kith.com'),
      'file'
    )
    const { token } = await adminWithToken()
    const shown = await client.get(`/api/admin/orders/${order.publicId}`).bearerToken(token)
    shown.assertStatus(200)
    assert.equal(shown.body().mailAddress, to)
    assert.equal(shown.body().status, 'success')
    assert.deepInclude(shown.body().mail[0], {
      kind: 'confirmation',
      dkim: 'pass',
      action: 'success',
    })
    assert.notProperty(shown.body().mail[0], 'rawSealed')

    const list = await client
      .get('/api/admin/mail-messages')
      .qs({ filter: JSON.stringify({ action: 'success' }) })
      .bearerToken(token)
    list.assertStatus(200)
    assert.equal(list.body()[0].orderId, order.publicId)
    assert.match(list.body()[0].sha256, /^[0-9a-f]{64}$/)

    const customer = await customerWithToken()
    const refused = await client.get('/api/admin/mail-messages').bearerToken(customer.token)
    assert.oneOf(refused.status(), [401, 403])
  })

  test('review: assign still needs the retailer’s signature; dismiss sets a message aside; both audited', async ({
    client,
    assert,
  }) => {
    const [order, other] = await submitted(2)
    const { token } = await adminWithToken()
    // Signed by Kith but for an address no order has: review.
    const lost = await mailIntake.receive(
      await sign(
        await retailerMail({
          retailer: 'kith',
          kind: 'confirmation',
          to: 'ds-nobody0000@in.dropslot.test',
        }),
        SIGNING_DOMAINS.kith
      ),
      'file'
    )
    assert.equal(lost.action, 'review')
    // Unsigned: review, and assigning it moves nothing.
    const unsigned = await mailIntake.receive(
      Buffer.from(
        await retailerMail({
          retailer: 'kith',
          kind: 'confirmation',
          to: orderMailAddress.of(other)!,
        })
      ),
      'file'
    )
    assert.equal(unsigned.action, 'review')

    const review = await client
      .get('/api/admin/mail-messages')
      .qs({ filter: JSON.stringify({ action: 'review' }) })
      .bearerToken(token)
    assert.lengthOf(review.body(), 2)

    const stillUnsigned = await client
      .post(`/api/admin/mail-messages/${unsigned.id}/assign`)
      .json({ orderId: other.publicId, reason: 'Bot used the wrong address' })
      .bearerToken(token)
    stillUnsigned.assertStatus(200)
    assert.equal(stillUnsigned.body().action, 'review')
    await other.refresh()
    assert.equal(other.status, 'processing')

    const assigned = await client
      .post(`/api/admin/mail-messages/${lost.id}/assign`)
      .json({ orderId: order.publicId, reason: 'Bot used the wrong address' })
      .bearerToken(token)
    assigned.assertStatus(200)
    assert.equal(assigned.body().action, 'success')
    await order.refresh()
    assert.equal(order.status, 'success')
    assert.equal(order.feeStatus, 'paid')

    const again = await client
      .post(`/api/admin/mail-messages/${lost.id}/assign`)
      .json({ orderId: order.publicId, reason: 'Bot used the wrong address' })
      .bearerToken(token)
    again.assertStatus(409)

    const dismissed = await client
      .post(`/api/admin/mail-messages/${unsigned.id}/dismiss`)
      .json({ reason: 'Not from the retailer' })
      .bearerToken(token)
    dismissed.assertStatus(200)
    assert.equal(dismissed.body().action, 'ignored')

    const bad = await client
      .post(`/api/admin/mail-messages/${unsigned.id}/assign`)
      .json({ orderId: 'not-a-uuid', reason: 'Bot used the wrong address' })
      .bearerToken(token)
    bad.assertStatus(422)

    const audit = await db
      .from('audit_logs')
      .whereIn('action', ['mail.assign', 'mail.dismiss'])
      .orderBy('id')
    assert.deepEqual(
      audit.map((row) => row.action),
      ['mail.assign', 'mail.assign', 'mail.dismiss']
    )

    const status = await client.get('/api/admin/mail-status').bearerToken(token)
    status.assertStatus(200)
    assert.equal(status.body().domain, 'in.dropslot.test')
    assert.equal(status.body().inReview, 0)
  })

  test('a product names its retailer in the console and in products:import; an unknown one is a 422', async ({
    client,
    assert,
  }) => {
    const { token } = await adminWithToken()
    const created = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ retailer: 'palace', slug: 'palace-mail-test' }))
    created.assertStatus(201)
    assert.equal(created.body().retailer, 'palace')
    const wrong = await client
      .post('/api/admin/products')
      .bearerToken(token)
      .json(productBody({ retailer: 'somewhere', slug: 'palace-mail-test-2' }))
    wrong.assertStatus(422)
    assert.property(wrong.body().errors, 'retailer')

    const directory = await mkdtemp(join(tmpdir(), 'dropslot-products-'))
    const file = join(directory, 'products.json')
    await writeFile(
      file,
      JSON.stringify([
        {
          productTitle: 'Union Import Test',
          slug: 'union-import-test',
          price: 20,
          totalStock: 5,
          retailer: 'union',
        },
      ])
    )
    await importProducts(file, { label: 'test' }).finally(() =>
      rm(directory, { recursive: true, force: true })
    )
    const imported = await Product.findByOrFail('slug', 'union-import-test')
    assert.equal(imported.retailer, 'union')
  })
})
