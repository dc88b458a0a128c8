import vine, { SimpleMessagesProvider } from '@vinejs/vine'

/*
| Validators of the release module's own calls (the console's release-day tools).
*/

const messages = new SimpleMessagesProvider(
  {
    'number': '{{ field }} must be a number.',
    'withoutDecimals': '{{ field }} must be a whole number.',
    'min': '{{ field }} must be at least {{ min }}.',
    'boolean': '{{ field }} must be true or false.',
    'enum': '{{ field }} must be one of: {{ choices }}.',
    'string': '{{ field }} must be text.',
    'maxLength': '{{ field }} must be at most {{ max }} characters.',
    'required': '{{ field }} is required.',
    'dryRun.required': 'Say whether this is a dry run (dryRun: true or false).',
    'confirm.required':
      'Confirm a real run: confirm must be the product id, or "all" when no product is given.',
  },
  { productId: 'Product id' }
)

/**
 * GET /api/admin/orders/resendAll?productId=&runId=&status=&dryRun=: the orders whose e-mail is
 * sent again; at least one scope is required (checked by the service).
 */
export const resendScopeValidator = vine.compile(
  vine.object({
    productId: vine.number().withoutDecimals().min(1).optional(),
    runId: vine.number().withoutDecimals().min(1).optional(),
    status: vine
      .enum([
        'pending',
        'processing',
        'success',
        'fail',
        'cancelled',
        'retailer_cancelled',
      ] as const)
      .optional(),
    dryRun: vine.boolean().optional(),
  })
)
resendScopeValidator.messagesProvider = messages

/** What `confirm` must say for a real run: the product's id, or "all" when no product is given. */
export function releaseConfirmation(productId: number | null | undefined): string {
  return productId === null || productId === undefined ? 'all' : String(productId)
}

const confirmsReleaseTarget = vine.createRule((value, _options, field) => {
  const productId = (field.parent as { productId?: unknown }).productId
  const expected = releaseConfirmation(productId as number | null | undefined)
  if (typeof value !== 'string' || value !== expected) {
    const target = expected === 'all' ? 'every released product' : `product ${expected}`
    field.report(`Type "${expected}" to confirm a real run of ${target}.`, 'confirm', field)
  }
})

/**
 * POST /api/admin/release-runs: run release day now, for one released product or all of them.
 * It moves money, so nothing is implied: `dryRun` is required and a real run also names what it
 * runs in `confirm` (see releaseConfirmation), as a person types it in the console's dialog.
 */
export const runReleaseValidator = vine.compile(
  vine.object({
    productId: vine
      .number()
      .withoutDecimals()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .nullable(),
    dryRun: vine.boolean({ strict: true }),
    confirm: vine
      .string()
      .trim()
      .maxLength(40)
      .use(confirmsReleaseTarget())
      .optional()
      .requiredWhen((field) => (field.parent as { dryRun?: unknown }).dryRun !== true),
  })
)
runReleaseValidator.messagesProvider = messages
