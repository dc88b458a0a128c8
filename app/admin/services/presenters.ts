import type { ProductColumns } from '#catalog/services/product_queries'
import type { OrderRecord } from '#orders/services/order_queries'
import type { UserRecord } from '#accounts/services/user_queries'
import { promoUsableAt, type PromoCodeRecord } from '#checkout/services/promo_code_service'
import type { Listed } from '#core/services/rest_query'
import { orderMailAddress } from '#orders/services/order_mail_address'
import type AuditLog from '#core/models/audit_log'
import { DateTime } from 'luxon'
import { presentProduct } from '#catalog/services/product_presenter'
import {
  presentStoredRetailers,
  retailersOf,
  type WithRetailers,
} from '#catalog/services/product_retailers'
import { presentOrder } from '#orders/services/order_presenter'
import { isFeeDue } from '#shared/vocabulary'

/*
| Admin records: what each resource looks like to ra-data-simple-rest. Every record has `id`;
| ids that reach a URL are the public ones (order public id, customer uuid). Never card data.
*/

/** What a list's query added to a row; a row read alone may carry none. */
type MaybeListed<Row> = Row & Partial<Pick<Listed<Row>, '$extras'>>

function extra(model: MaybeListed<object>, key: string) {
  return model.$extras?.[key]
}

function count(model: MaybeListed<object>, key: string) {
  const value = extra(model, key)
  return value === undefined || value === null ? undefined : Number(value)
}

export function presentAdminProduct(product: MaybeListed<ProductColumns & WithRetailers>) {
  return {
    id: product.id,
    ...presentProduct(product),
    activeOrders: count(product, 'active_orders'),
    // The console's form edits the mode under the name the API takes.
    releaseMode: product.releaseMode,
    retailer: product.retailer,
    // As stored, so the form sends them back unchanged: a null time is the product's.
    retailers: presentStoredRetailers(retailersOf(product)),
    queueOpensAt: product.queueOpensAt?.toISO() ?? null,
    queueMinutes: product.queueMinutes,
    queueRatePerMinute: product.queueRatePerMinute,
    createdAt: product.createdAt.toISO(),
    updatedAt: product.updatedAt?.toISO() ?? null,
  }
}

/** What customers see of an order (presentOrder), plus what support needs to act on it. */
export function presentAdminOrder(order: MaybeListed<OrderRecord>) {
  return {
    id: order.publicId,
    ...presentOrder(order),
    profileName: (extra(order, 'profile_name') as string | null | undefined) ?? 'gone',
    customerId: (extra(order, 'customer_uuid') as string | null | undefined) ?? null,
    feeStatus: order.feeStatus,
    feeDue: isFeeDue(order),
    feeAttempts: order.feeAttempts,
    feeErrorCode: order.feeErrorCode,
    failReason: order.failReason,
    failCode: order.failCode ?? null,
    refundedCents: order.refundedCents,
    /** The order's own intake address (MAIL_INTAKE_DOMAIN), once given to the checkout bot. */
    mailAddress: orderMailAddress.of(order),
    holdRound: order.holdRound ?? 1,
    /** When the placed hold's authorization lapses, and when a waiting order's is renewed. */
    holdExpiresAt: order.holdExpiresAt?.toUTC().toISO() ?? null,
    holdRenewAt: order.holdRenewAt?.toUTC().toISO() ?? null,
    processingAt: order.processingAt?.toISO() ?? null,
    succeededAt: order.succeededAt?.toISO() ?? null,
    failedAt: order.failedAt?.toISO() ?? null,
    cancelledAt: order.cancelledAt?.toISO() ?? null,
    updatedAt: order.updatedAt?.toISO() ?? null,
  }
}

/** A customer as support sees it: contact details and counts, no card data, no password. */
export function presentCustomer(user: MaybeListed<UserRecord>) {
  return {
    id: user.uuid,
    email: user.email,
    name: user.name,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    role: user.role,
    billingAddress: user.billingAddress,
    cardOnFile: Boolean(user.cardPaymentMethodId || user.cardLast4),
    ordersCount: count(user, 'orders_count'),
    profilesCount: count(user, 'profiles_count'),
    createdAt: user.createdAt.toISO(),
    updatedAt: user.updatedAt?.toISO() ?? null,
  }
}

export function presentPromoCode(promo: PromoCodeRecord) {
  return {
    id: promo.id,
    code: promo.code,
    percent: promo.percent,
    startsAt: promo.startsAt?.toISO() ?? null,
    expiresAt: promo.expiresAt?.toISO() ?? null,
    maxUses: promo.maxUses,
    uses: promo.uses,
    active: promo.active,
    usableNow: promoUsableAt(promo, DateTime.now()),
    createdAt: promo.createdAt.toISO(),
    updatedAt: promo.updatedAt?.toISO() ?? null,
  }
}

export function presentAuditEntry(entry: AuditLog) {
  return {
    id: entry.id,
    createdAt: entry.createdAt.toISO(),
    actorUserId: entry.actorUserId,
    actorLabel: entry.actorLabel,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    reason: entry.reason,
    meta: entry.meta,
    ip: entry.ip,
  }
}
