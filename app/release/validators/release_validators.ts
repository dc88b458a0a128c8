import vine, { SimpleMessagesProvider } from '@vinejs/vine'

/*
| Validators of the release module's own calls (the console's release-day tools).
*/

const messages = new SimpleMessagesProvider(
  {
    number: '{{ field }} must be a number.',
    withoutDecimals: '{{ field }} must be a whole number.',
    min: '{{ field }} must be at least {{ min }}.',
    boolean: '{{ field }} must be true or false.',
    enum: '{{ field }} must be one of: {{ choices }}.',
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
      .enum(['pending', 'processing', 'success', 'fail', 'cancelled'] as const)
      .optional(),
    dryRun: vine.boolean().optional(),
  })
)
resendScopeValidator.messagesProvider = messages
