import {
  createDecipheriv,
  createHash,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'

/**
 * A push service on loopback, as a browser's (RFC 8030) would be: it keeps the messages sent to
 * its subscriptions and opens them the way the browser does. Each subscription has its own P-256
 * key pair and auth secret (the browser's side of RFC 8291); a message is decrypted (aes128gcm,
 * RFC 8188) and its VAPID authorization checked (RFC 8292: an ES256 JWT for this origin, signed
 * by the key it names). A subscription can be made "gone": the service answers 410, as a push
 * service does for a browser that unsubscribed.
 */
export type PushSubscriptionJson = {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export type ReceivedPush = {
  subscription: string
  ttl: string | undefined
  urgency: string | undefined
  vapidKey: string
  claims: { aud: string; exp: number; sub: string }
  payload: any
}

type Browser = { ecdh: ReturnType<typeof createECDH>; auth: Buffer; gone: boolean }

const b64url = (value: Buffer) => value.toString('base64url')

/** A browser's p256dh key with the last byte of y changed: checked off P-256 by its equation. */
export function offCurve(p256dh: string) {
  const point = Buffer.from(p256dh, 'base64url')
  point[64] ^= 0x01
  const p = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n
  const b = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn
  const x = BigInt(`0x${point.subarray(1, 33).toString('hex')}`)
  const y = BigInt(`0x${point.subarray(33, 65).toString('hex')}`)
  if ((((y * y - (x * x * x - 3n * x + b)) % p) + p) % p === 0n) throw new Error('still on P-256')
  return point.toString('base64url')
}

/** A subscription row as an older server may have stored it, unchecked. */
export async function storeUnchecked(userId: number, subscription: PushSubscriptionJson) {
  await db.table('push_subscriptions').insert({
    user_id: userId,
    endpoint: subscription.endpoint,
    endpoint_hash: createHash('sha256').update(subscription.endpoint).digest('hex'),
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    created_at: new Date(),
    updated_at: new Date(),
  })
}

export class LocalPushService {
  received: ReceivedPush[] = []
  /** Requests it refused, with why (a bad signature, a body it could not open). */
  refused: { subscription: string; reason: string }[] = []
  private browsers = new Map<string, Browser>()
  private server: Server | null = null
  port = 0

  async start() {
    this.server = createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const id = (request.url ?? '').replace(/^\/push\//, '')
      const browser = this.browsers.get(id)
      if (request.method !== 'POST' || !browser) {
        response.writeHead(404).end()
        return
      }
      if (browser.gone) {
        response.writeHead(410).end()
        return
      }
      try {
        const { claims, key } = this.checkVapid(String(request.headers.authorization ?? ''))
        if (request.headers['content-encoding'] !== 'aes128gcm') {
          throw new Error(`content-encoding ${request.headers['content-encoding']}`)
        }
        const payload = JSON.parse(this.decrypt(browser, Buffer.concat(chunks)).toString('utf8'))
        this.received.push({
          subscription: id,
          ttl: request.headers.ttl as string | undefined,
          urgency: request.headers.urgency as string | undefined,
          vapidKey: key,
          claims,
          payload,
        })
        response.writeHead(201, { location: `/message/${this.received.length}` }).end()
      } catch (error) {
        this.refused.push({ subscription: id, reason: (error as Error).message })
        response.writeHead(400).end()
      }
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.port = (this.server!.address() as AddressInfo).port
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  /** A new browser subscription: what `PushSubscription.toJSON()` would give. */
  subscribe(): PushSubscriptionJson {
    const id = randomBytes(8).toString('hex')
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const browser = { ecdh, auth: randomBytes(16), gone: false }
    this.browsers.set(id, browser)
    return {
      endpoint: `http://127.0.0.1:${this.port}/push/${id}`,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(browser.auth) },
    }
  }

  /** The browser unsubscribed: the service answers 410 Gone from now on. */
  makeGone(subscription: PushSubscriptionJson) {
    this.browsers.get(subscription.endpoint.split('/').pop()!)!.gone = true
  }

  messagesFor(subscription: PushSubscriptionJson) {
    const id = subscription.endpoint.split('/').pop()
    return this.received.filter((item) => item.subscription === id)
  }

  /** RFC 8292: `vapid t=<JWT>, k=<P-256 public key>`, the JWT signed ES256 with that key. */
  private checkVapid(header: string) {
    const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header)
    if (!match) throw new Error(`no VAPID authorization: ${header.slice(0, 40)}`)
    const [token, key] = [match[1], match[2]]
    const [head, body, signature] = token.split('.')
    const point = Buffer.from(key, 'base64url')
    const publicKey = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: b64url(point.subarray(1, 33)),
        y: b64url(point.subarray(33, 65)),
      },
      format: 'jwk',
    })
    const valid = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url')
    )
    if (!valid) throw new Error('the VAPID signature does not verify')
    const header64 = JSON.parse(Buffer.from(head, 'base64url').toString())
    if (header64.alg !== 'ES256') throw new Error(`JWT alg ${header64.alg}`)
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    if (claims.aud !== `http://127.0.0.1:${this.port}`) throw new Error(`aud ${claims.aud}`)
    const now = Math.floor(Date.now() / 1000)
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('exp out of range')
    if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub}`)
    return { claims, key }
  }

  /** RFC 8291 with RFC 8188's aes128gcm: one record, padding delimiter 0x02. */
  private decrypt(browser: Browser, body: Buffer) {
    const salt = body.subarray(0, 16)
    const recordSize = body.readUInt32BE(16)
    const keyIdLength = body[20]
    const serverKey = body.subarray(21, 21 + keyIdLength)
    const ciphertext = body.subarray(21 + keyIdLength)
    if (ciphertext.length > recordSize) throw new Error('more than one record')
    const browserKey = browser.ecdh.getPublicKey()
    const sharedSecret = browser.ecdh.computeSecret(serverKey)
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserKey, serverKey])
    const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, browser.auth, keyInfo, 32))
    const cek = Buffer.from(
      hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16)
    )
    const nonce = Buffer.from(
      hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12)
    )
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
    const padded = Buffer.concat([
      decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
      decipher.final(),
    ])
    let end = padded.length - 1
    while (end >= 0 && padded[end] === 0) end--
    if (padded[end] !== 2) throw new Error('no last-record padding delimiter')
    return padded.subarray(0, end)
  }
}
