import type { HttpContext } from '@adonisjs/core/http'
import vine from '@vinejs/vine'
import { runList, sendList } from '#core/services/rest_query'
import { auditLog } from '#core/services/audit_log_service'
import { mailMessageList, mailReview, presentMailMessage } from '#mail/services/mail_review'
import { mailStatus } from '#mail/services/mail_status'

const assignValidator = vine.compile(
  vine.object({
    orderId: vine.string().trim().uuid(),
    reason: vine.string().trim().minLength(3).maxLength(255),
  })
)
const dismissValidator = vine.compile(
  vine.object({ reason: vine.string().trim().minLength(3).maxLength(255) })
)

/** The console's Mail page (admins only): messages, the review list, the intake's status. */
export default class MailMessagesController {
  async index({ request, response }: HttpContext) {
    return sendList(
      response,
      await runList(mailReview.query(), mailMessageList, request.qs(), presentMailMessage)
    )
  }

  async show({ params }: HttpContext) {
    return presentMailMessage(await mailReview.find(params.id))
  }

  async assign(ctx: HttpContext) {
    const { orderId, reason } = await ctx.request.validateUsing(assignValidator)
    return mailReview.assign(ctx.params.id, orderId, reason, auditLog.fromRequest(ctx))
  }

  async dismiss(ctx: HttpContext) {
    const { reason } = await ctx.request.validateUsing(dismissValidator)
    return mailReview.dismiss(ctx.params.id, reason, auditLog.fromRequest(ctx))
  }

  async status() {
    return mailStatus.summary()
  }
}
