import { DateTime } from 'luxon'
import User from '#accounts/models/user'
import { transportEnvelope } from '#core/services/transport_envelope'
import { UserFactory } from '#database/factories/user_factory'

/** A customer and a bearer token for it. */
export async function customerWithToken(overrides: Partial<User> = {}) {
  const user = await UserFactory.merge(overrides).create()
  const token = await User.accessTokens.create(user)
  return { user, token: token.value!.release() }
}

export async function adminWithToken() {
  const user = await UserFactory.apply('admin').create()
  const token = await User.accessTokens.create(user)
  return { user, token: token.value!.release() }
}

const address = {
  address1: '1 Main St',
  address2: '',
  firstName: 'Test',
  lastName: 'Customer',
  city: 'Springfield',
  zip: '12345',
  state: 'IL',
  country: 'US',
}

/** A complete decrypted profile as the storefront's wizard builds it. */
export function profilePayload(overrides: Record<string, unknown> = {}) {
  return {
    profileName: 'Home',
    email: 'buyer@example.test',
    phone: '555-123-4567',
    shipping: address,
    billing: address,
    card: {
      name: 'Test Customer',
      number: '4242 4242 4242 4242',
      code: '123',
      month: '12',
      year: String((DateTime.now().year + 2) % 100),
    },
    ...overrides,
  }
}

/** Seals a value in the transport envelope, as the storefront does before sending it. */
export function envelope(value: unknown) {
  return transportEnvelope.seal(value)
}
