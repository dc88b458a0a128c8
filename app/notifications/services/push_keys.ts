import { createPublicKey } from 'node:crypto'

/** The keys of a browser's push subscription (RFC 8291), base64url as the browser gives them. */
export type PushKeys = { p256dh: string; auth: string }

export type PushKeysProblem = { field: 'keys.p256dh' | 'keys.auth'; message: string }

export const PUSH_KEY_MESSAGES = {
  p256dhShape: "The subscription's p256dh key must be a P-256 public key (base64url).",
  p256dhCurve: "The subscription's p256dh key is not a point on the P-256 curve.",
  auth: "The subscription's auth secret must be 16 bytes (base64url).",
}

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/

/** The bytes of a base64url value (padding allowed), or null when it is not base64url. */
function decode(value: string): Buffer | null {
  if (!BASE64URL.test(value)) return null
  const bare = value.replace(/=+$/, '')
  if (bare.length % 4 === 1) return null
  return Buffer.from(bare, 'base64url')
}

/** Whether 65 bytes are an uncompressed point on P-256 (OpenSSL refuses any other). */
function isP256Point(bytes: Buffer) {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: bytes.subarray(1, 33).toString('base64url'),
        y: bytes.subarray(33, 65).toString('base64url'),
      },
      format: 'jwk',
    })
    return true
  } catch {
    return false
  }
}

/**
 * What is wrong with a subscription's keys, or null: `p256dh` must be 65 bytes, an uncompressed
 * point on P-256 (the browser's key the message is encrypted for), `auth` exactly 16 bytes.
 */
export function pushKeysProblem(keys: PushKeys): PushKeysProblem | null {
  const p256dh = decode(keys.p256dh.trim())
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04) {
    return { field: 'keys.p256dh', message: PUSH_KEY_MESSAGES.p256dhShape }
  }
  if (!isP256Point(p256dh)) return { field: 'keys.p256dh', message: PUSH_KEY_MESSAGES.p256dhCurve }
  const auth = decode(keys.auth.trim())
  if (!auth || auth.length !== 16) return { field: 'keys.auth', message: PUSH_KEY_MESSAGES.auth }
  return null
}

/** The keys as stored: base64url without padding (call after pushKeysProblem found none). */
export function canonicalPushKeys(keys: PushKeys): PushKeys {
  return {
    p256dh: decode(keys.p256dh.trim())!.toString('base64url'),
    auth: decode(keys.auth.trim())!.toString('base64url'),
  }
}
