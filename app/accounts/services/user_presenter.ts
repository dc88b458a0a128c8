import type User from '#accounts/models/user'

/** The spec's "user info": never any card data beyond the last 4 digits. */
export function presentUserInfo(user: User) {
  return {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    role: user.role,
    /** Whether sign-in asks for a code from an authenticator app. */
    twoStep: Boolean(user.totpConfirmedAt),
    billingAddress: user.billingAddress,
    billingLast4: user.cardLast4,
    cardBrand: user.cardBrand,
    cardExpMonth: user.cardExpMonth,
    cardExpYear: user.cardExpYear,
  }
}

export function presentUserSummary(user: User) {
  return {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    phone: user.phone,
    role: user.role,
    createdAt: user.createdAt.toISO(),
  }
}
