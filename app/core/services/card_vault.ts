import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import dropslotConfig, { type VaultKey } from '#config/dropslot'

/**
 * Server-only encryption for card data at rest: AES-256-GCM, stored as
 * `<keyId>:<base64(iv | tag | ciphertext)>` so keys can rotate (new writes use the first key,
 * reads find the key by id).
 */
export class CardVault {
  /**
   * The keys as key objects, made once: given as raw bytes, every seal and open imported the key
   * again, about half of the cipher's CPU (a checkout opens one card and seals one snapshot).
   */
  private keys: { id: string; key: KeyObject }[]

  constructor(keys: VaultKey[]) {
    this.keys = keys.map(({ id, key }) => ({ id, key: createSecretKey(key) }))
  }

  seal(value: unknown): string {
    const { id, key } = this.keys[0]
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
    return `${id}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`
  }

  open<T = unknown>(sealed: string): T {
    const separator = sealed.indexOf(':')
    const id = sealed.slice(0, separator)
    const entry = this.keys.find((candidate) => candidate.id === id)
    if (separator < 1 || !entry) throw new Error('Unknown vault key id')
    const raw = Buffer.from(sealed.slice(separator + 1), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    const plaintext = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()])
    return JSON.parse(plaintext.toString('utf8')) as T
  }

  /** True when the value was sealed with a key other than the current one. */
  needsRotation(sealed: string): boolean {
    return !sealed.startsWith(`${this.keys[0].id}:`)
  }
}

export const cardVault = new CardVault(dropslotConfig.vaultKeys)
