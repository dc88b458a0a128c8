import { test } from '@japa/runner'
import { createECDH, randomBytes } from 'node:crypto'
import pingsConfig from '#config/pings'
import { canonicalPushKeys, pushKeysProblem } from '#notifications/services/push_keys'
import { sendWebPush } from '#notifications/services/ping_transports'

const P = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn

const hex32 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex')

function power(base: bigint, exponent: bigint) {
  let result = 1n
  for (base %= P; exponent > 0n; exponent >>= 1n, base = (base * base) % P) {
    if (exponent & 1n) result = (result * base) % P
  }
  return result
}

/** A point on P-256 with a small x (y is a square root: P is 3 mod 4), and the same x + P. */
function smallPoint() {
  for (let x = 1n; ; x++) {
    const rhs = (((x ** 3n - 3n * x + B) % P) + P) % P
    const y = power(rhs, (P + 1n) / 4n)
    if ((y * y) % P === rhs) {
      const point = (first: bigint) => Buffer.concat([Buffer.from([4]), hex32(first), hex32(y)])
      return { onCurve: point(x), xPlusP: point(x + P) }
    }
  }
}

function browserKeys() {
  const ecdh = createECDH('prime256v1')
  return { point: ecdh.generateKeys(), auth: randomBytes(16).toString('base64url') }
}

test.group('Push subscription keys', () => {
  test('a P-256 point and a 16-byte secret pass, padded or not, stored without padding', ({
    assert,
  }) => {
    const { point, auth } = browserKeys()
    const p256dh = point.toString('base64url')
    assert.isNull(pushKeysProblem({ p256dh, auth }))
    assert.isNull(pushKeysProblem({ p256dh: `${p256dh}=`, auth: `${auth}==` }))
    assert.deepEqual(canonicalPushKeys({ p256dh: `${p256dh}=`, auth: `${auth}==` }), {
      p256dh,
      auth,
    })
    assert.isNull(pushKeysProblem({ p256dh: smallPoint().onCurve.toString('base64url'), auth }))
  })

  test('anything else names the key that is wrong', ({ assert }) => {
    // Standard base64 differs from base64url only where it has `+` or `/`: a key that has one
    // (about one random key in sixteen has neither, and would be a valid key spelled as base64url).
    let made = browserKeys()
    while (!/[+/]/.test(made.point.toString('base64'))) made = browserKeys()
    const { point, auth } = made
    const p256dh = point.toString('base64url')
    const hybrid = Buffer.from(point)
    hybrid[0] = 0x06 | (point[64] & 1)
    const cases: [string, { p256dh: string; auth: string }, string][] = [
      ['x + P', { p256dh: smallPoint().xPlusP.toString('base64url'), auth }, 'keys.p256dh'],
      ['a hybrid point', { p256dh: hybrid.toString('base64url'), auth }, 'keys.p256dh'],
      ['standard base64', { p256dh: point.toString('base64'), auth }, 'keys.p256dh'],
      ['a compressed point', { p256dh: p256dh.slice(0, 44), auth }, 'keys.p256dh'],
      ['a 17-byte secret', { p256dh, auth: randomBytes(17).toString('base64url') }, 'keys.auth'],
      [
        'a secret with a space',
        { p256dh, auth: `${auth.slice(0, 10)} ${auth.slice(11)}` },
        'keys.auth',
      ],
    ]
    for (const [name, keys, field] of cases) {
      assert.equal(pushKeysProblem(keys)?.field, field, name)
    }
  })

  test('a stored subscription is never posted to an endpoint no longer accepted', async ({
    assert,
  }) => {
    const { point, auth } = browserKeys()
    const saved = pingsConfig.pushServiceHosts
    pingsConfig.pushServiceHosts = ['fcm.googleapis.com']
    try {
      const outcome = await sendWebPush(
        { endpoint: 'https://push.example/1', p256dh: point.toString('base64url'), auth },
        { title: 't', body: 'b', url: '/user/orders', tag: 't' }
      )
      assert.deepEqual(outcome, {
        result: 'failed',
        detail: 'the endpoint is not a push service we send to',
      })
    } finally {
      pingsConfig.pushServiceHosts = saved
    }
  })
})
