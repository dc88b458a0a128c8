import type { HttpContext } from '@adonisjs/core/http'
import AuditLog from '#core/models/audit_log'
import { AppError } from '#core/exceptions/app_error'
import { auditLogList } from '#admin/services/list_definitions'
import { presentAuditEntry } from '#admin/services/presenters'
import { runList, sendList } from '#core/services/rest_query'

/** The audit log is read-only over HTTP: entries are written by the services that act. */
export default class AuditLogController {
  async index({ request, response }: HttpContext) {
    return sendList(
      response,
      await runList(AuditLog.query(), auditLogList, request.qs(), presentAuditEntry)
    )
  }

  async show({ params }: HttpContext) {
    const id = Number(params.id)
    const entry = Number.isSafeInteger(id) ? await AuditLog.find(id) : null
    if (!entry) throw AppError.notFound('Audit entry not found.', 'audit_entry_not_found')
    return presentAuditEntry(entry)
  }
}
