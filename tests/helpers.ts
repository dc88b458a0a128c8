import User from '#accounts/models/user'
import { transportEnvelope } from '#core/services/transport_envelope'
import { UserFactory } from '#database/factories/user_factory'
import { STAFF_TOKEN_NAME } from '#accounts/services/access_tokens_provider'
import { secondFactor } from '#accounts/services/second_factor'
import type { StaffRole } from '#shared/staff_roles'

/** A customer and a bearer token for it. */
export async function customerWithToken(overrides: Partial<User> = {}) {
  const user = await UserFactory.merge(overrides).create()
  const token = await User.accessTokens.create(user)
  return { user, token: token.value!.release() }
}

/**
 * A staff member (an owner unless told) and a token that has presented its second factor now,
 * as the console holds after signing in.
 */
export async function staffWithToken(role: StaffRole = 'owner', fields: { email?: string } = {}) {
  const user = await UserFactory.merge({ role, ...fields }).create()
  const token = await User.accessTokens.create(user, ['*'], { name: STAFF_TOKEN_NAME })
  await secondFactor.completeToken(String(token.identifier))
  return { user, token: token.value!.release() }
}

export async function adminWithToken() {
  return staffWithToken('owner')
}

/**
 * A fresh owner's token: for a test that moves the product clock past a staff session's 15
 * idle minutes between two looks at the console's API, as a person would sign in again.
 */
export async function freshStaffToken(): Promise<string> {
  const { token } = await staffWithToken('owner')
  return token
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
      // Card expiry is checked against the calendar, not the product's clock.
      year: String((new Date().getFullYear() + 2) % 100),
    },
    ...overrides,
  }
}

/** Seals a value in the transport envelope, as the storefront does before sending it. */
export function envelope(value: unknown) {
  return transportEnvelope.seal(value)
}

/*
| Money-path helpers: customers with a card saved through the sandbox gateway, profiles and
| products ready for checkout, and the hold worker.
*/
export const TEST_CARDS = {
  ok: '4242424242424242',
  declinedAtSave: '4000000000000002',
  declinesCharges: '4000000000000341',
  /** 3-D Secure when saved, and on every payment after. */
  needsAuthentication: '4000002760003184',
  /** 3-D Secure when saved; off-session payments pass after. */
  authenticateOnSetup: '4000002500003155',
}

/**
 * Saves a card on the customer through the configured (sandbox) gateway, as billing/set does;
 * a card that asks for 3-D Secure is authenticated on the sandbox's challenge first, as the
 * customer would.
 */
export async function saveCardFor(user: User, number: string = TEST_CARDS.ok) {
  const { paymentService } = await import('#payments/services/payment_service')
  const { billingCardService } = await import('#accounts/services/billing_card_service')
  const { sandboxChallenges } = await import('#payments/gateways/sandbox_gateway')
  const token = await paymentService.createCardToken(
    { name: user.name, number, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' },
    user.id
  )
  const result = await billingCardService.saveTokenOrAuthenticate(user, token.id)
  if (result.status === 'saved') return result.user
  await sandboxChallenges.answer(result.action.setupId, true)
  const confirmed = await billingCardService.confirmSetup(user, result.action.setupId)
  if (confirmed.status !== 'saved') throw new Error('The card was not saved after authentication.')
  return confirmed.user
}

/**
 * The sandbox challenge page's link for a setup or payment, with the pass its own customer is
 * handed (as billing/set or hold/authenticate give it): for tests that answer the page directly.
 */
export async function sandboxChallengeLink(id: string) {
  const { sandboxChallenges, sandboxChallengeUrl } =
    await import('#payments/gateways/sandbox_gateway')
  const { default: paymentsConfig } = await import('#config/payments')
  const challenge = await sandboxChallenges.find(id)
  if (!challenge) throw new Error(`No sandbox challenge ${id}.`)
  return sandboxChallengeUrl(paymentsConfig.sandbox.webhookSecret, id, challenge.customerId)
}

/** A customer with a bearer token and a card on file. */
export async function customerWithCard(
  card: string = TEST_CARDS.ok,
  overrides: Partial<User> = {}
) {
  const customer = await customerWithToken(overrides)
  await saveCardFor(customer.user, card)
  return customer
}

/** A saved profile of the customer (validated exactly as profiles/add does). */
export async function profileFor(user: User, overrides: Record<string, unknown> = {}) {
  const { profileService } = await import('#profiles/services/profile_service')
  const { newProfileValidator } = await import('#profiles/validators/profile_validator')
  const data = await newProfileValidator.validate(
    profilePayload({ email: user.email, ...overrides })
  )
  return profileService.create(user, data)
}

/** An available product releasing in 3 days (50 slots unless told otherwise). */
export async function productFor(overrides: Record<string, unknown> = {}) {
  const { ProductFactory } = await import('#database/factories/product_factory')
  return ProductFactory.merge(overrides).create()
}

/**
 * A customer with a card buys a slot over HTTP, as the storefront does (201): the customer and
 * the order as stored (its hold queued, its receipt written).
 */
export async function slotBoughtOverHttp(client: any, size = '9') {
  const { default: Order } = await import('#orders/models/order')
  const customer = await customerWithCard()
  const profile = await profileFor(customer.user)
  const product = await productFor()
  const response = await client
    .post('/api/checkout/withprofile')
    .bearerToken(customer.token)
    .json({ productId: product.id, style: 'Black', size, profileId: profile.publicId })
  response.assertStatus(201)
  const order = await Order.findByOrFail('publicId', response.body().order.orderId)
  return { customer, order }
}

/** Places every due hold, as the web process's worker would. */
export async function placeHolds() {
  const { holdWorker } = await import('#payments/services/hold_worker')
  return holdWorker.drain()
}

/** A customer with a card, a profile and a pending order on a fresh product (service path). */
export async function pendingOrder(
  options: { card?: string; product?: Record<string, unknown>; promoCode?: string } = {}
) {
  const { checkoutService } = await import('#checkout/services/checkout_service')
  const customer = await customerWithCard(options.card ?? TEST_CARDS.ok)
  const profile = await profileFor(customer.user)
  const product = await productFor({ totalStock: 10, stockTaken: 0, ...options.product })
  const { default: Order } = await import('#orders/models/order')
  const opened = await checkoutService.checkout(customer.user, {
    productId: product.id,
    style: 'Black',
    size: '9',
    profileId: profile.publicId,
    promoCode: options.promoCode,
  })
  const order = await Order.findOrFail(opened.id)
  return { ...customer, profile, product, order }
}
