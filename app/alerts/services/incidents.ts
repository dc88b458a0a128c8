import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Incident from '#alerts/models/incident'
import type { Finding } from '#alerts/rules/rule'
import { ALERT_RULES } from '#alerts/rules/index'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { filters, integer, oneOf, text, type ListDefinition } from '#core/services/rest_query'

const openKeyOf = (rule: string, subject: string) => `${rule}:${subject}`.slice(0, 180)

/** An incident as the console, the CLI and the alert messages show it. */
export function presentIncident(incident: Incident) {
  const end = incident.resolvedAt ?? DateTime.now()
  return {
    id: incident.id,
    rule: incident.rule,
    ruleDescription: ALERT_RULES.find((rule) => rule.id === incident.rule)?.description ?? null,
    subject: incident.subject,
    status: incident.status,
    title: incident.title,
    detail: incident.detail,
    value: incident.value,
    threshold: incident.threshold,
    openedAt: incident.openedAt.toISO(),
    lastSeenAt: incident.lastSeenAt.toISO(),
    resolvedAt: incident.resolvedAt?.toISO() ?? null,
    durationSeconds: Math.max(0, Math.round(end.diff(incident.openedAt).as('seconds'))),
  }
}

/** The console's incident list (ra-data-simple-rest). */
export const incidentList: ListDefinition = {
  resource: 'incidents',
  sortable: {
    id: 'id',
    openedAt: 'opened_at',
    resolvedAt: 'resolved_at',
    rule: 'rule',
    status: 'status',
  },
  defaultSort: ['openedAt', 'desc'],
  search: ['title', 'detail', 'subject'],
  filters: {
    id: filters.anyOf('id', integer()),
    status: filters.equals('status', oneOf(['open', 'resolved'] as const)),
    rule: filters.equals('rule', text(48)),
    openedAt_gte: filters.from('opened_at'),
    openedAt_lte: filters.until('opened_at'),
  },
}

/**
 * Incidents: opened by a rule's finding (one open per rule and subject, decided by a unique
 * index, so two checks at once open it once), kept up to date while the finding lasts, and
 * resolved by a conditional update (so two checks at once resolve it once).
 */
export class Incidents {
  query() {
    return Incident.query()
  }

  async openOf(rule: string): Promise<Incident[]> {
    return Incident.query().where('rule', rule).where('status', 'open')
  }

  /** Open incidents, oldest first (dashboard, `alerts:status`). */
  async open(): Promise<Incident[]> {
    return Incident.query().where('status', 'open').orderBy('opened_at', 'asc').orderBy('id', 'asc')
  }

  async find(id: number): Promise<Incident> {
    const incident = Number.isSafeInteger(id) ? await Incident.find(id) : null
    if (!incident) throw AppError.notFound('Incident not found.', 'incident_not_found')
    return incident
  }

  /**
   * Opens the incident of a finding, or brings the open one up to date. `opened` is true only
   * for the check that opened it: that one announces it.
   */
  async raise(rule: string, finding: Finding): Promise<{ incident: Incident; opened: boolean }> {
    const now = DateTime.now()
    const openKey = openKeyOf(rule, finding.subject)
    const fields = {
      title: finding.title.slice(0, 200),
      detail: finding.detail.slice(0, 1000),
      value: finding.value,
      threshold: finding.threshold,
    }
    try {
      const incident = await Incident.create({
        rule,
        subject: finding.subject.slice(0, 120),
        openKey,
        status: 'open',
        ...fields,
        openedAt: now,
        lastSeenAt: now,
        resolvedAt: null,
      })
      return { incident, opened: true }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
    await db
      .from('incidents')
      .where('open_key', openKey)
      .update({ ...fields, last_seen_at: sqlTime(now), updated_at: sqlTime(now) })
    const incident = await Incident.findByOrFail('openKey', openKey)
    return { incident, opened: false }
  }

  /**
   * Resolves an open incident, for the one check that does it, as it was read: not if another check has seen it again since (its
   * last-seen time moved), so two checks at once never resolve what the later one still sees.
   */
  async resolve(incident: Incident): Promise<Incident | null> {
    const now = DateTime.now()
    const changed = await db
      .from('incidents')
      .where('id', incident.id)
      .where('status', 'open')
      .where('last_seen_at', sqlTime(incident.lastSeenAt))
      .update({
        status: 'resolved',
        open_key: null,
        resolved_at: sqlTime(now),
        updated_at: sqlTime(now),
      })
    if (affectedRows(changed) !== 1) return null
    return Incident.findOrFail(incident.id)
  }
}

export const incidents = new Incidents()
