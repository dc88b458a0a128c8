import { DateTime } from 'luxon'
import type { Infer } from '@vinejs/vine/types'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Profile, { type Address, type VaultedCard } from '#profiles/models/profile'
import { AppError } from '#core/exceptions/app_error'
import { cardVault } from '#core/services/card_vault'
import { transportEnvelope } from '#core/services/transport_envelope'
import { detectCardBrand } from '#core/helpers/cards'
import { editProfileValidator, newProfileValidator } from '#profiles/validators/profile_validator'

/** The customer a profile belongs to: only their id is needed. */
type Owner = { id: number }

type NewProfile = Infer<typeof newProfileValidator>
type ProfileCard = NewProfile['card']

export const PROFILE_NOT_FOUND = 'Profile not found.'

/** Who a profile ships and bills to, as the customer sees it and an order's sealed copy keeps. */
export function profileDetails(
  profile: Pick<Profile, 'publicId' | 'profileName' | 'email' | 'phone' | 'shipping' | 'billing'>
) {
  return {
    profileId: profile.publicId,
    profileName: profile.profileName,
    email: profile.email,
    phone: profile.phone,
    shipping: profile.shipping,
    billing: profile.billing,
  }
}

/** What customers see of a profile: the card as brand, last 4 and expiry only. */
export function presentProfile(profile: Profile) {
  return {
    ...profileDetails(profile),
    card: {
      name: profile.cardName,
      last4: profile.cardLast4,
      cardType: profile.cardBrand,
      month: String(profile.cardExpMonth).padStart(2, '0'),
      year: String(profile.cardExpYear),
      /** Whether the security code is kept; without it the next checkout asks for it again. */
      codeKept: profile.cardCodeAt !== null && profile.cardCodeAt !== undefined,
    },
    keepCardCode: Boolean(profile.keepCardCode),
    createdAt: profile.createdAt.toISO(),
  }
}

function toAddress(input: NewProfile['shipping']): Address {
  return {
    address1: input.address1,
    address2: input.address2 ?? '',
    firstName: input.firstName,
    lastName: input.lastName,
    city: input.city,
    zip: input.zip,
    state: input.state,
    country: input.country ?? 'US',
  }
}

/**
 * Shipping/billing profiles. They arrive in the transport envelope, are validated after it is
 * opened, and their card is sealed in the server-only vault; only last 4, brand and expiry are
 * kept in the clear.
 */
export class ProfileService {
  async list(user: Owner) {
    return Profile.query().where('user_id', user.id).orderBy('id', 'asc')
  }

  async findOwned(user: Owner, profileId: unknown): Promise<Profile> {
    const profile =
      typeof profileId === 'string' && profileId.length <= 64
        ? await Profile.query().where('public_id', profileId).where('user_id', user.id).first()
        : null
    if (!profile) throw AppError.notFound(PROFILE_NOT_FOUND, 'profile_not_found')
    return profile
  }

  async addFromEnvelope(user: Owner, envelope: unknown): Promise<Profile> {
    const data = await newProfileValidator.validate(transportEnvelope.open(envelope, 'eProfile'))
    return this.create(user, data)
  }

  async create(user: Owner, data: NewProfile): Promise<Profile> {
    const profile = new Profile()
    profile.userId = user.id
    this.fill(profile, data)
    this.sealCard(profile, data.card, data)
    await profile.save()
    return profile
  }

  async editFromEnvelope(user: Owner, envelope: unknown): Promise<Profile> {
    const data = await editProfileValidator.validate(transportEnvelope.open(envelope, 'eProfile'))
    const profile = await this.findOwned(user, data.profileId)
    this.fill(profile, data)
    if (data.card && data.card.number) this.sealCard(profile, data.card, data)
    await profile.save()
    return profile
  }

  async delete(user: Owner, profileId: unknown): Promise<void> {
    const profile = await this.findOwned(user, profileId)
    await profile.delete()
  }

  /** The full card of a customer's profile by its public id, or null (gone, or no card). */
  /** Deletes every profile of a customer, sealed cards included, within the caller's `trx`. */
  async deleteAllOf(userId: number, trx: TransactionClientContract) {
    await trx.from('profiles').where('user_id', userId).delete()
  }

  async cardOf(userId: number, profileId: string): Promise<VaultedCard | null> {
    const profile = await Profile.query()
      .where('public_id', profileId)
      .where('user_id', userId)
      .first()
    return profile?.cardVault ? this.openCard(profile) : null
  }

  /** The full card, for the release-day export only (audited by the caller). */
  openCard(profile: Pick<Profile, 'cardVault'>): VaultedCard {
    return cardVault.open<VaultedCard>(profile.cardVault)
  }

  /**
   * Seals the security code the customer entered again at checkout into the profile's card,
   * which keeps it for the retention period (or for good, if they chose to keep it).
   */
  async rememberCardCode(profileId: string, code: string): Promise<void> {
    const profile = await Profile.query().where('public_id', profileId).first()
    if (!profile) return
    profile.cardVault = cardVault.seal({ ...this.openCard(profile), code })
    profile.cardCodeAt = DateTime.now()
    await profile.save()
  }

  private fill(profile: Profile, data: Omit<NewProfile, 'card'>) {
    if (data.keepCardCode !== undefined) profile.keepCardCode = data.keepCardCode
    else profile.keepCardCode ??= false
    profile.profileName = data.profileName
    profile.email = data.email
    profile.phone = data.phone
    profile.shipping = toAddress(data.shipping)
    profile.billing = toAddress(data.billing)
  }

  private sealCard(profile: Profile, card: ProfileCard, data: Omit<NewProfile, 'card'>) {
    const cardType = detectCardBrand(card.number)
    const name = card.name || `${data.billing.firstName} ${data.billing.lastName}`
    const vaulted: VaultedCard = {
      name,
      number: card.number,
      code: card.code,
      month: card.month,
      year: card.year,
      cardType,
    }
    profile.cardVault = cardVault.seal(vaulted)
    profile.cardName = name
    profile.cardBrand = cardType
    profile.cardLast4 = card.number.slice(-4)
    profile.cardExpMonth = Number(card.month)
    profile.cardExpYear = Number(card.year)
    profile.cardCodeAt = DateTime.now()
  }
}

export const profileService = new ProfileService()
