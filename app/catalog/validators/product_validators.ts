import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { dateTime, listOrText, ruleMessages } from '#core/helpers/vine_fields'
import { RELEASE_MODES, RETAILER_IDS } from '#shared/vocabulary'

/*
| The shape of a product as the console and `products:import` send it (the spec's field names;
| price in dollars). The rules that need the database or the size type (sizes that fit, stock
| never below the slots taken, unique slugs) are `productAdminService`'s.
*/

/** The retailers a product may list. */
export const MAX_RETAILERS = 10

const messages = new SimpleMessagesProvider(
  {
    ...ruleMessages,
    'productImage.regex': 'Use an image URL (https://...) or a path starting with /.',
    'slug.regex': 'Use lower-case letters, digits and dashes.',
    'retailers.array.minLength': `List from 1 to ${MAX_RETAILERS} retailers.`,
    'retailers.array.maxLength': `List from 1 to ${MAX_RETAILERS} retailers.`,
    'retailers.distinct': 'Each retailer may be listed once.',
    'retailers.*.url.url': '{{ field }} must be an https:// address.',
  },
  {
    productTitle: 'Title',
    productImage: 'Image',
    totalStock: 'Total stock',
    stockTaken: 'Slots taken',
    sizeType: 'Size type',
    releaseAt: 'Release time',
    restockUntil: 'Restocks tried until',
    releaseMode: 'Release mode',
    entryOpensAt: 'Entries open',
    entryClosesAt: 'Entries close',
    queueOpensAt: 'Sale opens',
    queueMinutes: 'Waiting room minutes',
    queueRatePerMinute: 'Let through per minute',
    retailers: 'Retailers',
    retailer: 'Retailer',
    priceCents: 'Retail price (cents)',
    url: 'Product URL',
  }
)

/** Where the product releases, in order: the first is its `retailer`. */
const retailerList = () =>
  vine
    .array(
      vine.object({
        retailer: vine.enum(RETAILER_IDS),
        releaseAt: dateTime().optional().nullable(),
        /** The retail price in cents, shipping included when known. */
        priceCents: vine.number().withoutDecimals().min(0).max(10_000_000),
        url: vine
          .string()
          .trim()
          .maxLength(500)
          .url({ protocols: ['https'], require_protocol: true })
          .optional()
          .nullable(),
      })
    )
    .minLength(1)
    .maxLength(MAX_RETAILERS)
    .distinct('retailer')
    .optional()

/** The fields that may always be left out, the same at creation and in an edit. */
const optionalFields = () => ({
  sizeType: vine.enum(['shoe', 'clothing', 'OS'] as const).optional(),
  sizes: listOrText(8).optional().nullable(),
  styles: listOrText(100).optional().nullable(),
  tags: listOrText(40).optional().nullable(),
  /** The seller (`nike`, `kith`...): only its signed e-mail moves the orders' money. */
  retailer: vine.enum(RETAILER_IDS).optional().nullable(),
  /** When sent, the whole list, and `retailer` is its first. */
  retailers: retailerList(),
  avail: vine.boolean().optional(),
  releaseAt: dateTime().optional().nullable(),
  /** After the drop, restocks are tried until then (the service checks it against `releaseAt`). */
  restockUntil: dateTime().optional().nullable(),
  releaseMode: vine.enum(RELEASE_MODES).optional(),
  entryOpensAt: dateTime().optional().nullable(),
  entryClosesAt: dateTime().optional().nullable(),
  queueOpensAt: dateTime().optional().nullable(),
  queueMinutes: vine
    .number()
    .withoutDecimals()
    .min(1)
    .max(24 * 60)
    .optional()
    .nullable(),
  queueRatePerMinute: vine.number().withoutDecimals().min(1).max(100_000).optional().nullable(),
})

const productFields = {
  productTitle: vine.string().trim().minLength(1).maxLength(160),
  slug: vine
    .string()
    .trim()
    .maxLength(100)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    .optional()
    .nullable(),
  productImage: vine
    .string()
    .trim()
    .maxLength(500)
    .regex(/^(https?:\/\/\S+|\/\S*)?$/)
    .optional()
    .nullable(),
  description: vine.string().trim().maxLength(5000).optional().nullable(),
  /** Dollars, as the spec's Product has it (stored as cents). */
  price: vine.number().min(0).max(100000).decimal([0, 2]),
  totalStock: vine.number().withoutDecimals().min(0).max(1_000_000),
}

export const createProductValidator = vine.compile(
  vine.object({
    ...productFields,
    ...optionalFields(),
    stockTaken: vine.number().withoutDecimals().min(0).max(1_000_000).optional(),
  })
)
createProductValidator.messagesProvider = messages

/** Partial update: only the fields sent change. Slots taken move only through orders. */
export const updateProductValidator = vine.compile(
  vine.object({
    productTitle: productFields.productTitle.clone().optional(),
    slug: productFields.slug.clone(),
    productImage: productFields.productImage.clone(),
    description: productFields.description.clone(),
    price: productFields.price.clone().optional(),
    totalStock: productFields.totalStock.clone().optional(),
    ...optionalFields(),
  })
)
updateProductValidator.messagesProvider = messages
