import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#accounts/models/user'
import { orderSettlement } from '#payments/services/order_settlement'
import { orderLifecycle } from '#orders/services/order_lifecycle'
import { orderNumber } from '#orders/services/order_numbers'
import { customerOrdersChannel } from '#orders/services/order_updates'
import { customerWithToken, pendingOrder } from '#tests/helpers'
import { openEventStream } from '#tests/support/event_stream'
import { withoutRandomIds } from '#tests/support/random_ids'

async function tokenFor(user: User) {
  const token = await User.accessTokens.create(user)
  return token.value!.release()
}

test.group('Orders: live updates over server-sent events', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  const streams: Awaited<ReturnType<typeof openEventStream>>[] = []
  group.each.teardown(async () => {
    await Promise.all(streams.splice(0).map((stream) => stream.close()))
  })
  const stream = async () => {
    const opened = await openEventStream()
    streams.push(opened)
    return opened
  }

  test('the event stream is a same-origin, unbuffered text/event-stream', async ({ assert }) => {
    const { response } = await stream()
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type')!, /^text\/event-stream/)
    assert.equal(response.headers.get('x-accel-buffering'), 'no')
    assert.include(response.headers.get('cache-control')!, 'no-transform')
    assert.isNull(response.headers.get('content-encoding'))
    assert.include(response.headers.get('content-security-policy')!, "connect-src 'self'")
  })

  test('only the signed-in customer may follow their own orders', async ({ assert }) => {
    const owner = await customerWithToken()
    const other = await customerWithToken()
    const channel = customerOrdersChannel(owner.user.uuid)
    const listener = await stream()

    assert.equal(await listener.subscribe(channel), 401, 'anonymous')
    assert.equal(await listener.subscribe(channel, 'oat_not-a-real-token'), 401, 'bad token')
    const refused = await listener.subscribe(channel, other.token)
    assert.isAtLeast(refused, 400, 'another customer')
    assert.isBelow(refused, 500)
    assert.equal(await listener.subscribe(customerOrdersChannel(other.user.uuid), owner.token), 400)
    assert.equal(await listener.subscribe(channel, owner.token), 204, 'the owner')
  })

  test("another customer's refused subscription receives nothing", async ({ assert }) => {
    const { order, user } = await pendingOrder()
    const intruder = await customerWithToken()
    const watcher = await stream()
    const channel = customerOrdersChannel(user.uuid)
    assert.equal(await watcher.subscribe(channel, intruder.token), 400)

    const owner = await stream()
    const token = await tokenFor(user)
    assert.equal(await owner.subscribe(channel, token), 204)
    await orderSettlement.succeed(order.id, { confirmationNumber: 'RT-1' })
    await owner.next(channel, (update) => update.status === 'success')
    assert.isEmpty(watcher.messages.filter((message) => message.channel === channel))
  })

  test('a transition reaches the customer with the order and its new status only', async ({
    assert,
  }) => {
    const { order, user } = await pendingOrder()
    const token = await tokenFor(user)
    const channel = customerOrdersChannel(user.uuid)
    const listener = await stream()
    assert.equal(await listener.subscribe(channel, token), 204)

    assert.isTrue(await orderLifecycle.claimForProcessing(order.id))
    const processing = await listener.next(channel, (update) => update.status === 'processing')
    assert.deepEqual(processing, {
      orderId: order.publicId,
      orderNumber: orderNumber(order.id),
      status: 'processing',
      holdStatus: order.holdStatus,
      feeStatus: 'none',
    })

    await orderSettlement.succeed(order.id, { confirmationNumber: 'RT-2' })
    const success = await listener.next(channel, (update) => update.status === 'success')
    assert.equal(success.orderId, order.publicId)
    // The fee charged after the transition is announced too.
    await listener.next(channel, (update) => update.feeStatus === 'paid')
    const everything = withoutRandomIds(JSON.stringify(listener.messages))
    for (const secret of [user.email, order.name, '4242', 'RT-2', 'pi_']) {
      assert.notInclude(everything, secret)
    }
  })

  test('a change nobody changed announces nothing', async ({ assert }) => {
    const { order, user } = await pendingOrder()
    const token = await tokenFor(user)
    const channel = customerOrdersChannel(user.uuid)
    const listener = await stream()
    assert.equal(await listener.subscribe(channel, token), 204)
    // Already pending: giving back a claim that was never taken moves nothing.
    assert.isFalse(await orderLifecycle.unclaim(order.id))
    // Announcements arrive in order: once a real change has arrived, the no-op had its chance.
    assert.isTrue(await orderLifecycle.claimForProcessing(order.id))
    await listener.next(channel, (update) => update.status === 'processing')
    const received = listener.messages.filter((message) => message.channel === channel)
    assert.lengthOf(received, 1, JSON.stringify(received))
  })
})
