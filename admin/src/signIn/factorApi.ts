import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { postJson } from '../authProvider'

/*
| The second-factor routes a password-only staff token opens (README, "Staff sign-in"). Every
| refusal becomes an Error whose message is the server's own sentence, shown as it is.
*/

export type Enrolment = { secret: string; otpauthUrl: string; issuer: string }

/** The sign-in took too long or was cancelled elsewhere: the token no longer opens anything. */
export class SignInExpired extends Error {}

async function call<T>(url: string, token: string, body: unknown = {}): Promise<T> {
  const { response, json } = await postJson(url, body, token)
  if (response.status === 401) {
    throw new SignInExpired('Your sign-in timed out. Enter your e-mail and password again.')
  }
  if (!response.ok) {
    throw new Error(json.error ?? 'Something went wrong. Please try again.')
  }
  return json as T
}

export const factorApi = {
  /** A new authenticator secret and its otpauth:// URI (for the QR code). */
  enrol: (token: string) => call<Enrolment>('/api/session/totp/enrol', token),

  /** The authenticator's code; the first one after enrolment returns the recovery codes. */
  totp: (token: string, code: string) =>
    call<{ success: true; recoveryCodes?: string[] }>('/api/session/totp', token, { code }),

  /** A one-time recovery code instead of the authenticator. */
  recovery: (token: string, code: string) =>
    call<{ success: true; recoveryCodes?: undefined }>('/api/session/recovery', token, { code }),

  /** Options for the browser's passkey prompt, then its answer checked: a passkey at sign-in. */
  passkeyOptions: (token: string) =>
    call<PublicKeyCredentialRequestOptionsJSON>('/api/session/passkey/options', token),
  passkey: (token: string, credential: unknown) =>
    call<{ success: true; recoveryCodes?: undefined }>('/api/session/passkey', token, {
      credential,
    }),

  /** A new passkey: its creation options, then the browser's answer kept. */
  passkeyRegistrationOptions: (token: string) =>
    call<PublicKeyCredentialCreationOptionsJSON>('/api/session/passkey/register/options', token),
  registerPasskey: (token: string, credential: unknown) =>
    call<{ success: true; recoveryCodes?: string[] }>('/api/session/passkey/register', token, {
      credential,
      name: 'Console passkey',
    }),

  /** Gives up the sign-in: the password-only token is revoked. */
  async cancel(token: string) {
    await postJson('/api/session/logout', {}, token).catch(() => undefined)
  },
}

/** A base32 secret as people type it: groups of four. */
export function groupedSecret(secret: string) {
  return (
    secret
      .replace(/\s/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? secret
  )
}
