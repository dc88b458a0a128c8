import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import {
  newsletterAdmin,
  presentSubscriber,
  type NewsletterSubscriberRecord,
} from '#notifications/services/newsletter_admin_service'
import { auditLog } from '#core/services/audit_log_service'
import { subscriberList } from '#admin/services/list_definitions'
import { MAX_PAGE_SIZE, parseFilter, runList, sendList } from '#core/services/rest_query'

const EXPORT_LIMIT = 100_000

export default class SubscribersController {
  async index({ request, response }: HttpContext) {
    const result = await runList(
      newsletterAdmin.query(),
      subscriberList,
      request.qs(),
      presentSubscriber
    )
    return sendList(response, result)
  }

  async show({ params }: HttpContext) {
    return presentSubscriber(await newsletterAdmin.find(Number(params.id)))
  }

  async destroy(ctx: HttpContext) {
    const subscriber = await newsletterAdmin.delete(Number(ctx.params.id))
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'subscriber.delete',
      subjectType: 'subscriber',
      subjectId: subscriber.id,
      meta: { email: subscriber.email },
    })
    return presentSubscriber(subscriber)
  }

  /** `GET /api/admin/subscribers/export.csv?filter={...}`: the whole filtered list as CSV. */
  async export(ctx: HttpContext) {
    const query = newsletterAdmin.query()
    for (const apply of parseFilter(ctx.request.qs().filter, subscriberList)) apply(query)
    const subscribers: NewsletterSubscriberRecord[] = await query
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(EXPORT_LIMIT)
    await auditLog.record({
      ...auditLog.fromRequest(ctx),
      action: 'subscriber.export',
      subjectType: 'subscriber',
      meta: {
        rows: subscribers.length,
        filter: ctx.request.qs().filter ?? null,
        pageCap: MAX_PAGE_SIZE,
      },
    })
    const stamp = DateTime.now().toFormat('yyyyLLdd-HHmm')
    ctx.response.header('content-type', 'text/csv; charset=utf-8')
    ctx.response.header('content-disposition', `attachment; filename="subscribers-${stamp}.csv"`)
    ctx.response.header('cache-control', 'no-store')
    return newsletterAdmin.toCsv(subscribers)
  }
}
