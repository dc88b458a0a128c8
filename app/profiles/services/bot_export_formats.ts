import { stringify } from 'csv-stringify/sync'
import type { Address, VaultedCard } from '#profiles/models/profile'

/**
 * ACO ("all-in-one checkout") exports: the decrypted profile and order that a checkout bot
 * needs, in Dropslot's own format and the common bot formats. These contain full card data:
 * callers must audit every export (who, why) before handing one out.
 */
export const EXPORT_FORMATS = ['dropslot', 'aycd', 'stellar', 'cybersole', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export type AcoProfile = {
  profileId: string
  profileName: string
  email: string
  phone: string
  shipping: Address
  billing: Address
  card: VaultedCard
}

/** The retailer a task is for: where, when, and at what known price with shipping. */
export type AcoRetailer = {
  retailer: string
  name: string
  url: string | null
  priceCents: number | null
  releaseAt: string | null
}

export type AcoEntry = {
  orderId: string
  /**
   * The task of the order's current round (`task-{orderId}-{round}`): a bot reports its result
   * under it (a result of an older round is refused as stale).
   */
  taskId: string
  round: number
  productId: number
  productTitle: string
  style: string
  size: string
  /** The sizes to try, in order (the first is `size`): the first one in stock is bought. */
  sizes: string[]
  /** The retailer of this task; null for a product that names none. */
  retailer: AcoRetailer | null
  /** The most the buyer pays for the item with shipping, in cents; null: no cap. */
  maxItemPriceCents: number | null
  profile: AcoProfile
}

export type ExportFile = {
  format: ExportFormat
  contentType: string
  extension: string
  body: string
}

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value)
}

const fullName = (address: Address) => `${address.firstName} ${address.lastName}`.trim()
const sameAddress = (a: Address, b: Address) => JSON.stringify(a) === JSON.stringify(b)
const profileLabel = (entry: AcoEntry) =>
  `${entry.profile.profileName} #${entry.orderId.slice(0, 8)}`

/** What a format that holds profiles, not tasks, carries of the task: ladder, site, cap. */
function taskFields(entry: AcoEntry) {
  return {
    sizes: entry.sizes,
    site: entry.retailer?.name ?? null,
    productUrl: entry.retailer?.url ?? null,
    maxItemPriceCents: entry.maxItemPriceCents,
  }
}

function aycd(entry: AcoEntry) {
  const { profile } = entry
  const address = (value: Address) => ({
    name: fullName(value),
    email: profile.email,
    phone: profile.phone,
    line1: value.address1,
    line2: value.address2,
    line3: '',
    postCode: value.zip,
    city: value.city,
    country: value.country,
    state: value.state,
  })
  return {
    name: profileLabel(entry),
    size: entry.size,
    ...taskFields(entry),
    profileGroup: entry.productTitle,
    billingAddress: address(profile.billing),
    shippingAddress: address(profile.shipping),
    paymentDetails: {
      nameOnCard: profile.card.name,
      cardType: profile.card.cardType,
      cardNumber: profile.card.number,
      cardExpMonth: profile.card.month,
      cardExpYear: profile.card.year,
      cardCvv: profile.card.code,
    },
    sameBillingAndShippingAddress: sameAddress(profile.billing, profile.shipping),
    onlyCheckoutOnce: true,
    matchNameOnCardAndAddress: false,
  }
}

function stellar(entry: AcoEntry) {
  const { profile } = entry
  const address = (value: Address) => ({
    firstName: value.firstName,
    lastName: value.lastName,
    address1: value.address1,
    address2: value.address2,
    city: value.city,
    country: value.country,
    state: value.state,
    zipcode: value.zip,
  })
  return {
    profileName: profileLabel(entry),
    ...taskFields(entry),
    email: profile.email,
    phone: profile.phone,
    shipping: address(profile.shipping),
    billing: address(profile.billing),
    billingAsShipping: sameAddress(profile.billing, profile.shipping),
    payment: {
      cardHolder: profile.card.name,
      cardNumber: profile.card.number,
      expMonth: profile.card.month,
      expYear: profile.card.year,
      cvv: profile.card.code,
    },
  }
}

function cybersole(entry: AcoEntry) {
  const { profile } = entry
  const address = (value: Address) => ({
    firstName: value.firstName,
    lastName: value.lastName,
    address1: value.address1,
    address2: value.address2,
    zip: value.zip,
    city: value.city,
    country: value.country,
    state: value.state,
  })
  return {
    name: profileLabel(entry),
    ...taskFields(entry),
    email: profile.email,
    phone: profile.phone,
    billingDifferent: !sameAddress(profile.billing, profile.shipping),
    card: {
      number: profile.card.number,
      expiryMonth: profile.card.month,
      expiryYear: profile.card.year,
      cvv: profile.card.code,
    },
    delivery: address(profile.shipping),
    billing: address(profile.billing),
  }
}

const CSV_COLUMNS = [
  'orderId',
  'taskId',
  'round',
  'productId',
  'productTitle',
  'style',
  'size',
  'sizes',
  'retailer',
  'retailerUrl',
  'retailerPriceCents',
  'maxItemPriceCents',
  'profileName',
  'email',
  'phone',
  'shippingFirstName',
  'shippingLastName',
  'shippingAddress1',
  'shippingAddress2',
  'shippingCity',
  'shippingState',
  'shippingZip',
  'shippingCountry',
  'billingFirstName',
  'billingLastName',
  'billingAddress1',
  'billingAddress2',
  'billingCity',
  'billingState',
  'billingZip',
  'billingCountry',
  'cardName',
  'cardType',
  'cardNumber',
  'cardExpMonth',
  'cardExpYear',
  'cardCvv',
]

function csvRow(entry: AcoEntry) {
  const { profile } = entry
  const { shipping, billing, card } = profile
  return [
    entry.orderId,
    entry.taskId,
    entry.round,
    entry.productId,
    entry.productTitle,
    entry.style,
    entry.size,
    entry.sizes.join(' | '),
    entry.retailer?.retailer ?? '',
    entry.retailer?.url ?? '',
    entry.retailer?.priceCents ?? '',
    entry.maxItemPriceCents ?? '',
    profile.profileName,
    profile.email,
    profile.phone,
    shipping.firstName,
    shipping.lastName,
    shipping.address1,
    shipping.address2,
    shipping.city,
    shipping.state,
    shipping.zip,
    shipping.country,
    billing.firstName,
    billing.lastName,
    billing.address1,
    billing.address2,
    billing.city,
    billing.state,
    billing.zip,
    billing.country,
    card.name,
    card.cardType,
    card.number,
    card.month,
    card.year,
    card.code,
  ]
}

export function exportAco(format: ExportFormat, entries: AcoEntry[]): ExportFile {
  if (format === 'csv') {
    return {
      format,
      contentType: 'text/csv; charset=utf-8',
      extension: 'csv',
      body: stringify([CSV_COLUMNS, ...entries.map(csvRow)]),
    }
  }
  const converters: Record<Exclude<ExportFormat, 'csv'>, (entry: AcoEntry) => unknown> = {
    dropslot: (entry) => entry,
    aycd,
    stellar,
    cybersole,
  }
  const converted = entries.map(converters[format])
  const body = format === 'dropslot' ? { version: 1, orders: converted } : converted
  return {
    format,
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    body: JSON.stringify(body, null, 2),
  }
}
