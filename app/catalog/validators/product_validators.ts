import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { dateTime, listOrText, ruleMessages } from '#core/helpers/vine_fields'
import { RELEASE_MODES, RETAILER_IDS } from '#shared/vocabulary'

/*
| The shape of a product as the console and `products:import` send it (the spec's field names;
| price in dollars). The rules that need the database or the size type (sizes that fit, stock
| never below the slots taken, unique slugs) are `productAdminService`'s.
*/

const messages = new SimpleMessagesProvider(
  {
    ...ruleMessages,
    'productImage.regex': 'Use an image URL (https://...) or a path starting with /.',
    'slug.regex': 'Use lower-case letters, digits and dashes.',
  },
  {
    productTitle: 'Title',
    productImage: 'Image',
    totalStock: 'Total stock',
    stockTaken: 'Slots taken',
    sizeType: 'Size type',
    releaseAt: 'Release time',
    releaseMode: 'Release mode',
    entryOpensAt: 'Entries open',
    entryClosesAt: 'Entries close',
    queueOpensAt: 'Sale opens',
    queueMinutes: 'Waiting room minutes',
    queueRatePerMinute: 'Let through per minute',
  }
)

/** The fields that may always be left out, the same at creation and in an edit. */
const optionalFields = () => ({
  sizeType: vine.enum(['shoe', 'clothing', 'OS'] as const).optional(),
  sizes: listOrText(8).optional().nullable(),
  styles: listOrText(100).optional().nullable(),
  tags: listOrText(40).optional().nullable(),
  /** The seller (`nike`, `kith`...): only its signed e-mail moves the orders' money. */
  retailer: vine.enum(RETAILER_IDS).optional().nullable(),
  avail: vine.boolean().optional(),
  releaseAt: dateTime().optional().nullable(),
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
