/**
 * The transport envelope of profiles and cards: AES-256-CBC (PKCS#7 padding, as Node's
 * createCipheriv), a random 16-byte IV, sent as `hex(iv):hex(ciphertext)` of JSON.stringify(value).
 * The key is public (served by /api/config): this is API compatibility; TLS protects the transport.
 */
const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16)
  }
  return bytes
}

const keys = new Map<string, Promise<CryptoKey>>()

export async function seal(keyHex: string, value: unknown): Promise<string> {
  if (!crypto.subtle) {
    throw new Error('This page must be opened over HTTPS (or on localhost) to send card details.')
  }
  let key = keys.get(keyHex)
  if (!key) {
    key = crypto.subtle.importKey('raw', fromHex(keyHex), { name: 'AES-CBC' }, false, ['encrypt'])
    keys.set(keyHex, key)
  }
  const iv = crypto.getRandomValues(new Uint8Array(16))
  const plaintext = new TextEncoder().encode(JSON.stringify(value))
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, await key, plaintext)
  return `${toHex(iv)}:${toHex(new Uint8Array(ciphertext))}`
}
