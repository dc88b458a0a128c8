import type { HttpContext } from '@adonisjs/core/http'
import {
  emailAdmin,
  presentEmail,
  type EmailMessageRecord,
} from '#notifications/services/email_admin_service'
import { emailList } from '#admin/services/list_definitions'
import { runList, sendList, type Listed } from '#core/services/rest_query'

function links(email: Listed<EmailMessageRecord>) {
  return {
    orderId: (email.$extras.order_public_id as string | null) ?? null,
    customerId: (email.$extras.customer_uuid as string | null) ?? null,
  }
}

/** The e-mail log: every message the outbox recorded, read-only. */
export default class EmailsController {
  async index({ request, response }: HttpContext) {
    const result = await runList(
      emailAdmin.query(),
      emailList,
      request.qs(),
      (email: Listed<EmailMessageRecord>) => presentEmail(email, links(email))
    )
    return sendList(response, result)
  }

  async show({ params }: HttpContext) {
    const found = await emailAdmin.find(Number(params.id))
    const query = emailAdmin.query().where('email_messages.id', found.id)
    emailList.decorate!(query)
    const email = (await query.first())!
    return presentEmail(email, links(email), true)
  }
}
