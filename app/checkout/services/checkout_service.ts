import type { CustomerRecord } from '#accounts/services/user_queries'
import { cardOnFile, cardOnFileFingerprint } from '#payments/services/card_on_file'
import { catalogService, productNotFound } from '#catalog/services/catalog_service'
import {
  readProductAndProfile,
  type CheckoutProduct,
  type CheckoutProfile,
} from '#checkout/services/checkout_reads'
import { withDriverSession, type DriverSession } from '#core/services/driver_session'
import { soldOutMemory } from '#catalog/services/sold_out_memory'
import {
  PROFILE_NOT_FOUND,
  profileDetails,
  profileService,
} from '#profiles/services/profile_service'
import type { ProductColumns } from '#catalog/services/product_queries'
import type { Address } from '#profiles/services/profile_queries'
import { orderLifecycle, type NewOrder, type OpenedOrder } from '#orders/services/order_lifecycle'
import { AppError } from '#core/exceptions/app_error'
import { isUniqueViolation } from '#core/helpers/db_errors'
import { cardVault } from '#core/services/card_vault'
import { transportEnvelope } from '#core/services/transport_envelope'
import { profileInput } from '#profiles/services/profile_input'
import { notifications } from '#notifications/services/notification_service'
import { orderEmails } from '#notifications/services/order_emails'
import paymentsConfig from '#config/payments'
import dropslotConfig from '#config/dropslot'
import { priceAfterPromo } from '#shared/pricing'
import { redeemPromo } from '#checkout/services/promo_redemption'
import { slotStock } from '#catalog/services/slot_stock'
import { jobs } from '#core/jobs/jobs'
import { drawEntries } from '#draws/services/draw_entries'
import { waitingRoom } from '#draws/services/waiting_room'
import { productRetailers, type RetailerEntry } from '#catalog/services/product_retailers'
import { checkSlotChoices, namesChoices } from '#checkout/services/slot_choices'
import { slotChoiceColumns } from '#orders/services/slot_choice_columns'

export const INSUFFICIENT_CHECKOUT_DATA = 'insufficient checkout data'
export const CARD_CODE_REQUIRED = "Enter your card's security code to check out with this profile."
export const INVALID_CARD_CODE = "Please enter your card's 3 or 4 digit security code."
export const SOLD_OUT = 'Sorry, this release is sold out.'
export const DUPLICATE_ORDER =
  'You already have a slot for this release with this profile. Select a new profile.'

export type CheckoutRequest = {
  productId: unknown
  style?: unknown
  size?: unknown
  profileId: unknown
  promoCode?: unknown
  /** The card's security code in the transport envelope, when the profile no longer keeps it. */
  eCardCode?: unknown
  /** The waiting room's pass, for a drop that has one. */
  queuePass?: unknown
  /** The sizes to try in order, the retailers accepted and the price cap (`SlotChoicesRequest`). */
  sizes?: unknown
  retailers?: unknown
  maxItemPriceCents?: unknown
  /** An admin placing an order for a customer is not in the line (never set from a request). */
  outsideWaitingRoom?: boolean
}

/** A draw entry's card is known by the gateway's fingerprint, asked for outside the session. */
class FingerprintNeeded extends Error {}

/** The sealed copy an order keeps, so release day works even if the profile changes later. */
export type AcoSnapshot = {
  profile: {
    profileId: string
    profileName: string
    email: string
    phone: string
    shipping: Address
    billing: Address
  }
  card: ReturnType<typeof profileService.openCard>
  order: { productId: number; productTitle: string; style: string; size: string }
}

/** The 409 of a sold-out product (its message is the spec's). */
export function soldOut() {
  return AppError.conflict(SOLD_OUT, 'sold_out')
}

/**
 * The same 409 as the error handler writes it (`ErrorEnvelope`), serialised once: the answer
 * the release-day rush gets most often, sent without building an error for each press.
 */
export const SOLD_OUT_BODY = JSON.stringify({ success: false, error: SOLD_OUT, code: 'sold_out' })

/** The same 409 for a product the database has just shown sold out, remembered for a second. */
function soldOutSeen(productId: number) {
  soldOutMemory.remember(productId)
  return soldOut()
}

/** The 409 of a product whose release has dropped: its slots are no longer sold. */
function releasedAlready() {
  return AppError.conflict('This release has already dropped.', 'released')
}

/** A product id as the checkout reads it from a request body (number or numeric string). */
export function productIdOf(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value))
}

function present(value: unknown): boolean {
  return (
    value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '')
  )
}

/**
 * Slot purchase. One transaction takes the promo use, the slot and the order row, each by a
 * statement the database decides atomically (conditional UPDATEs and the unique index of active
 * orders), so under any concurrency: never more orders than slots, one active order per product
 * and profile, a limited promo never over-used. No gateway call happens here: the $1.00 hold is
 * queued on the order and placed by the hold worker after the commit.
 *
 * Callers: POST /api/checkout/withprofile, /api/checkout/completeuser, and the admin console
 * (`checkoutService.checkout(user, {productId, style, size, profileId, promoCode})`).
 */
export class CheckoutService {
  async checkout(user: CustomerRecord, request: CheckoutRequest): Promise<OpenedOrder> {
    try {
      return await this.checkoutOnce(user, request, user.cardFingerprint)
    } catch (error) {
      if (!(error instanceof FingerprintNeeded)) throw error
      // A card saved before fingerprints were kept: the gateway is asked once (a read), off
      // the session (SQLite's pool has one connection, and the session holds it).
      return this.checkoutOnce(user, request, await cardOnFileFingerprint(user.id))
    }
  }

  private async checkoutOnce(
    user: CustomerRecord,
    request: CheckoutRequest,
    cardFingerprint: string | null
  ): Promise<OpenedOrder> {
    if (!present(request.productId) || !present(request.profileId)) {
      throw AppError.badRequest(INSUFFICIENT_CHECKOUT_DATA, 'insufficient_checkout_data')
    }
    // After a drop sells out nearly every press lands here: answered from memory (a second at
    // most), then from the product row (read with the profile), before the card or a
    // transaction. Both are shortcuts only: while slots remain, the conditional UPDATE decides.
    const productId = productIdOf(request.productId)
    if (soldOutMemory.has(productId)) throw soldOut()
    // Only a slot with choices needs the release's retailers, read before the session (which
    // holds SQLite's one connection).
    const retailers: RetailerEntry[] | null = namesChoices(request)
      ? await productRetailers.listFor(productId)
      : null
    // Every statement of the purchase, the receipt included, goes on one driver session: the
    // release-day rush is bound by the app's CPU, and this is the cheapest way to the database.
    const { order, receiptId, enteredCode } = await withDriverSession(async (session) => {
      const { product, profile } = await readProductAndProfile(
        session,
        productId,
        user.id,
        request.profileId
      )
      if (!product || !product.avail) throw productNotFound()
      const { style, size } = this.chooseVariant(product, request.style, request.size)
      if (product.isReleased) throw releasedAlready()
      const choiceColumns = slotChoiceColumns.write(
        retailers
          ? checkSlotChoices(product, retailers, size, request)
          : { sizeLadder: null, retailerChoice: null, maxItemPriceCents: null }
      )
      // A draw takes entries, any number of them: its slots are given when it runs.
      if (!product.isDraw && product.stockTaken >= product.totalStock) {
        throw soldOutSeen(product.id)
      }
      const passNonce = request.outsideWaitingRoom
        ? null
        : waitingRoom.requirePass(product, user.id, request.queuePass)
      if (!profile) throw AppError.notFound(PROFILE_NOT_FOUND, 'profile_not_found')
      if (!(await cardOnFile(user))) {
        throw new AppError('Please add a card to your account before checking out.', {
          status: 402,
          code: 'card_required',
        })
      }
      const prepared = await this.prepareOrder(user, product, profile, request, {
        style,
        size,
        ...choiceColumns,
      })
      const opened = product.isDraw
        ? await this.enterDraw(session, user, product, profile, prepared.newOrder, cardFingerprint)
        : await this.openSlot(session, prepared.newOrder, request.promoCode, passNonce)
      return { ...opened, enteredCode: prepared.enteredCode }
    })
    // After the commit: a worker that ran the jobs earlier would not see the order yet.
    await jobs.dispatch('payments.place-hold', { orderId: order.id })
    if (receiptId) await notifications.deliverSoon(receiptId)
    if (enteredCode) await profileService.rememberCardCode(order.profileId, enteredCode)
    return order
  }

  /**
   * Everything the order needs, prepared before the transaction, which only writes: the sealed
   * copy of the profile and card for release day (with the security code entered again when the
   * profile no longer keeps it), the price and the buyer's choices.
   */
  private async prepareOrder(
    user: CustomerRecord,
    product: CheckoutProduct,
    profile: CheckoutProfile,
    request: CheckoutRequest,
    chosen: Pick<NewOrder, 'style' | 'size' | 'sizeLadder' | 'retailerChoice' | 'maxItemPriceCents'>
  ): Promise<{ newOrder: NewOrder; enteredCode: string | null }> {
    let enteredCode: string | null = null
    const card = profileService.openCard(profile)
    if (!card.code) {
      enteredCode = await this.cardCodeFrom(request.eCardCode)
      card.code = enteredCode
    }
    const snapshot: AcoSnapshot = {
      profile: profileDetails(profile),
      card,
      order: {
        productId: product.id,
        productTitle: product.title,
        style: chosen.style,
        size: chosen.size,
      },
    }
    const newOrder: NewOrder = {
      userId: user.id,
      productId: product.id,
      profileId: profile.publicId,
      productTitle: product.title,
      basePriceCents: product.priceCents,
      priceCents: product.priceCents,
      promoCode: null,
      promoPercent: null,
      ...chosen,
      email: user.email,
      name: user.name || `${profile.shipping.firstName} ${profile.shipping.lastName}`,
      acoVault: cardVault.seal(snapshot),
      holdAmountCents: paymentsConfig.holdAmountCents,
    }
    return { newOrder, enteredCode }
  }

  /** A draw's entry (one per person and card) and its e-mail: its slots are given when it runs. */
  private async enterDraw(
    session: DriverSession,
    user: CustomerRecord,
    product: CheckoutProduct,
    profile: CheckoutProfile,
    newOrder: NewOrder,
    cardFingerprint: string | null
  ) {
    if (!cardFingerprint) throw new FingerprintNeeded()
    const entry = await drawEntries.enter(session, {
      product: {
        id: product.id,
        totalStock: product.totalStock,
        entryOpensAt: product.entryOpensAtRaw,
        entryClosesAt: product.entryClosesAtRaw,
      },
      newOrder,
      cardFingerprint,
      card: { brand: user.cardBrand, last4: user.cardLast4 },
      shipping: profile.shipping,
    })
    const receipt = await orderEmails.sendDrawEntered(
      entry.order,
      {
        entryId: entry.entryId,
        closesAt: product.entryClosesAt ?? '',
        commitment: entry.commitment,
        round: entry.round,
        proofUrl: `${dropslotConfig.appUrl}/product/${product.id}/draw?entry=${entry.entryId}`,
      },
      session
    )
    return { order: entry.order, receiptId: receipt?.id ?? null }
  }

  /** A slot taken and its order opened, with the receipt written beside it. */
  private async openSlot(
    session: DriverSession,
    newOrder: NewOrder,
    promoCodeInput: unknown,
    passNonce: string | null
  ) {
    const promoCode = present(promoCodeInput) ? String(promoCodeInput) : null
    const written = { receiptId: null as number | null }
    // SQLite runs the whole transaction without giving the event loop away and has one writer
    // anyway: the receipt joins the order's transaction there, one commit instead of two. On
    // MariaDB it stays out of it, so the product's row is locked no longer than the slot and
    // the order need.
    const receiptInTransaction = session.dialect === 'sqlite'
    let order: OpenedOrder
    try {
      order = await this.takeSlotAndOpen(
        session,
        newOrder.productId,
        newOrder,
        promoCode,
        passNonce,
        receiptInTransaction
          ? async (newlyOpened) => {
              const receipt = await orderEmails.sendReceipt(newlyOpened, session)
              written.receiptId = receipt?.id ?? null
            }
          : null
      )
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(DUPLICATE_ORDER, 'duplicate')
      throw error
    }
    if (!receiptInTransaction) {
      const receipt = await orderEmails.sendReceipt(order, session)
      written.receiptId = receipt?.id ?? null
    }
    return { order, receiptId: written.receiptId }
  }

  /**
   * The security code entered again for a profile whose code was deleted (docs/decisions.md,
   * card data retention): asked for with a 409 the storefront answers with a code field.
   */
  private async cardCodeFrom(envelope: unknown): Promise<string> {
    if (!present(envelope)) {
      throw AppError.conflict(CARD_CODE_REQUIRED, 'card_code_required')
    }
    try {
      return await profileInput.cardCode(transportEnvelope.open(envelope, 'eCardCode'))
    } catch (error) {
      if (error instanceof AppError) throw error
      throw AppError.unprocessable(
        INVALID_CARD_CODE,
        { eCardCode: INVALID_CARD_CODE },
        'invalid_card_code'
      )
    }
  }

  /**
   * The purchase's writes: the promo's use (if any), the slot and the order, all or nothing.
   * The slot's UPDATE locks the product's row, which every checkout of the drop needs, until the
   * commit (the order's INSERT needs that row too, for its foreign key), so the lock is held as
   * briefly as the database allows: on MariaDB/MySQL without a promo code, slot and order are
   * one stored procedure call (one round trip); otherwise a transaction with the slot first,
   * then only the order's INSERT (and `alsoInTransaction`, when given) before the commit.
   */
  private async takeSlotAndOpen(
    session: DriverSession,
    productId: number,
    newOrder: NewOrder,
    promoCode: string | null,
    passNonce: string | null,
    alsoInTransaction: ((order: OpenedOrder) => Promise<void>) | null
  ): Promise<OpenedOrder> {
    if (!promoCode && !passNonce && session.dialect === 'mysql') {
      const order = await orderLifecycle.openWithSlot(newOrder, session)
      if (!order) throw soldOutSeen(productId)
      return order
    }
    return session.transaction(async () => {
      // A waiting room's pass is for one checkout: spent with the slot, or not at all.
      const pass = passNonce ? { productId, userId: newOrder.userId, nonce: passNonce } : null
      if (pass) await waitingRoom.spendPass(session, pass)
      const promo = promoCode ? await redeemPromo(promoCode, session) : null
      if (!(await slotStock.take(productId, session))) throw soldOutSeen(productId)
      if (promo) {
        newOrder.priceCents = priceAfterPromo(newOrder.basePriceCents, promo.percent)
        newOrder.promoCode = promo.code
        newOrder.promoPercent = promo.percent
      }
      const opened = await orderLifecycle.open(newOrder, session)
      if (pass) await waitingRoom.passSpentBy(session, pass.nonce, opened.id)
      if (alsoInTransaction) await alsoInTransaction(opened)
      return opened
    })
  }

  /** The sealed ACO copy of an order (release day; callers audit the reveal). */
  openSnapshot(order: { acoVault: string | null }): AcoSnapshot | null {
    return order.acoVault ? cardVault.open<AcoSnapshot>(order.acoVault) : null
  }

  /** Checks a product id and its variant without writing anything (completeuser validates first). */
  async validateVariant(productId: unknown, style: unknown, size: unknown) {
    if (!present(productId)) {
      throw AppError.badRequest(INSUFFICIENT_CHECKOUT_DATA, 'insufficient_checkout_data')
    }
    const product = await catalogService.findAvailable(productIdOf(productId))
    const variant = this.chooseVariant(product, style, size)
    // The refusals of the purchase itself, so a caller can refuse before it writes anything.
    if (product.isReleased) throw releasedAlready()
    if (product.stockTaken >= product.totalStock) throw soldOutSeen(product.id)
    return { product, ...variant }
  }

  /**
   * Size must be one of the product's sizes (OS for one-size products), style one of its styles
   * (a single-style product needs none). Matching ignores case; the product's spelling is kept.
   */
  private chooseVariant(
    product: Pick<ProductColumns, 'sizeType' | 'sizes'> & { styleList: string[] },
    style: unknown,
    size: unknown
  ) {
    const styles = product.styleList.length ? product.styleList : ['OS']
    let chosenStyle: string | undefined
    if (present(style)) {
      const wanted = String(style).trim().toLowerCase()
      chosenStyle = styles.find((candidate) => candidate.toLowerCase() === wanted)
      if (!chosenStyle) {
        throw AppError.unprocessable('Please choose one of the styles of this product.', {
          style: 'Please choose one of the styles of this product.',
        })
      }
    } else if (styles.length === 1) {
      chosenStyle = styles[0]
    } else {
      throw AppError.badRequest(INSUFFICIENT_CHECKOUT_DATA, 'insufficient_checkout_data')
    }

    const sizes = product.sizeType === 'OS' ? ['OS'] : (product.sizes ?? [])
    let chosenSize: string | undefined
    if (present(size)) {
      const wanted = String(size).trim().toLowerCase()
      chosenSize = sizes.find((candidate) => String(candidate).toLowerCase() === wanted)
      if (!chosenSize) {
        throw AppError.unprocessable('Please choose one of the sizes of this product.', {
          size: 'Please choose one of the sizes of this product.',
        })
      }
    } else if (product.sizeType === 'OS') {
      chosenSize = 'OS'
    } else {
      throw AppError.badRequest(INSUFFICIENT_CHECKOUT_DATA, 'insufficient_checkout_data')
    }
    return { style: chosenStyle, size: chosenSize }
  }
}

export const checkoutService = new CheckoutService()
