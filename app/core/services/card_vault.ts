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
    return this.encrypt(Buffer.from(JSON.stringify(value), 'utf8'))
  }

  open<T = unknown>(sealed: string): T {
    return JSON.parse(this.decrypt(sealed).toString('utf8')) as T
  }

  /**
   * The same plaintext, byte for byte, sealed again with the current key (`vault:rotate`).
   * Throws as `open` does: a key id we do not hold, or a value that does not open.
   */
  reseal(sealed: string): string {
    return this.encrypt(this.decrypt(sealed))
  }

  /** The ids of the keys, the current one (which seals) first. */
  get keyIds(): string[] {
    return this.keys.map(({ id }) => id)
  }

  /** The key id a sealed value names (`t1` of `t1:...`), held or not; '' when it names none. */
  static keyIdOf(sealed: string): string {
    const separator = sealed.indexOf(':')
    return separator < 1 ? '' : sealed.slice(0, separator)
  }

  private encrypt(plaintext: Buffer): string {
    const { id, key } = this.keys[0]
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return `${id}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`
  }

  private decrypt(sealed: string): Buffer {
    const id = CardVault.keyIdOf(sealed)
    const entry = this.keys.find((candidate) => candidate.id === id)
    if (!entry) throw new Error('Unknown vault key id')
    const raw = Buffer.from(sealed.slice(id.length + 1), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()])
  }

  /** True when the value was sealed with a key other than the current one. */
  needsRotation(sealed: string): boolean {
    return !sealed.startsWith(`${this.keys[0].id}:`)
  }
}

export const cardVault = new CardVault(dropslotConfig.vaultKeys)
