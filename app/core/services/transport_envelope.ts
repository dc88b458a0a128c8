import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import dropslotConfig from '#config/dropslot'
import { AppError } from '#core/exceptions/app_error'

/**
 * The spec's client-side envelope (`eProfile`, `encrypted`): `hex(iv16):hex(ciphertext)`,
 * AES-256-CBC with PROFILE_TRANSPORT_KEY. The key is public (the storefront has it), so this is
 * API compatibility, not protection; TLS protects the transport and the vault protects storage.
 */
export class TransportEnvelope {
  constructor(private key: Buffer) {}

  seal(value: unknown): string {
    const iv = randomBytes(16)
    const cipher = createCipheriv('aes-256-cbc', this.key, iv)
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
    return `${iv.toString('hex')}:${ciphertext.toString('hex')}`
  }

  /** Opens an envelope sent by a client; anything malformed is the caller's 400, never a 500. */
  open(envelope: unknown, field: string): Record<string, unknown> {
    const invalid = () =>
      AppError.badRequest('The encrypted payload could not be read.', 'invalid_envelope', {
        [field]: 'The encrypted payload could not be read.',
      })
    if (typeof envelope !== 'string') throw invalid()
    const match = /^([0-9a-fA-F]{32}):([0-9a-fA-F]+)$/.exec(envelope.trim())
    if (!match || match[2].length % 32 !== 0) throw invalid()
    try {
      const decipher = createDecipheriv('aes-256-cbc', this.key, Buffer.from(match[1], 'hex'))
      const plaintext = Buffer.concat([
        decipher.update(Buffer.from(match[2], 'hex')),
        decipher.final(),
      ]).toString('utf8')
      const value = JSON.parse(plaintext)
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new Error('not an object')
      return value as Record<string, unknown>
    } catch {
      throw invalid()
    }
  }
}

export const transportEnvelope = new TransportEnvelope(dropslotConfig.profileTransportKey)
