import simpleRestProvider from 'ra-data-simple-rest'
import type { DataProvider, Identifier } from 'react-admin'
import { downloadResponse, fetchWithToken, httpClient } from './http'
import type {
  DrawRunAnswer,
  DrawView,
  QueuesOverview,
  ReleaseRunAnswer,
} from '@shared/api/contract'

export const API_URL = '/api/admin'

export type AcoFormat = 'dropslot' | 'aycd' | 'stellar' | 'cybersole' | 'csv'
export const ACO_FORMATS: AcoFormat[] = ['dropslot', 'aycd', 'stellar', 'cybersole', 'csv']

/** The answers' shapes come from the server's code (`shared/api/contract.ts`). */
export type {
  DrawView,
  QueuedReleaseRun,
  QueuesOverview,
  ReleaseRunResult,
} from '@shared/api/contract'

const base = simpleRestProvider(API_URL, httpClient)

/**
 * ra-data-simple-rest over /api/admin, plus the console's own calls. Order actions (mark,
 * cancel, resend, ACO export, create) call the admin endpoints of the orders and release-day
 * modules.
 */
export const dataProvider = {
  ...base,

  /** Orders are created through the spec's call, which answers `{ success, order }`. */
  create: async (resource, params) => {
    if (resource !== 'orders') return base.create(resource, params)
    const { json } = await httpClient(`${API_URL}/orders/create`, {
      method: 'POST',
      body: JSON.stringify(params.data),
    })
    const order = json.order ?? json
    return { data: { ...order, id: order.id ?? order.orderId } }
  },

  async queues() {
    const { json } = await httpClient(`${API_URL}/queues`)
    return json as QueuesOverview
  },

  /** Retries or discards a failed job (audited). */
  async queueJob(queue: string, jobId: string, action: 'retry' | 'discard') {
    const path = `${encodeURIComponent(queue)}/failed/${encodeURIComponent(jobId)}/${action}`
    await httpClient(`${API_URL}/queues/${path}`, { method: 'POST', body: '{}' })
  },

  async draw(productId: number) {
    const { json } = await httpClient(`${API_URL}/draws/${productId}`)
    return json as DrawView
  },

  /** Runs a draw whose entries have closed (audited; a second run changes nothing). */
  async runDraw(productId: number) {
    const { json } = await httpClient(`${API_URL}/draws/${productId}/run`, {
      method: 'POST',
      body: '{}',
    })
    return json as DrawRunAnswer
  },

  async dashboard() {
    const { json } = await httpClient(`${API_URL}/dashboard`)
    return json
  },

  /**
   * Runs release day now (the CLI's release:run); 409 while another run holds the lock. A real
   * run names what it runs in `confirm`: the product id, or "all" without a product.
   */
  async runRelease(options: { productId?: number | null; dryRun: boolean; confirm?: string }) {
    const { json } = await httpClient(`${API_URL}/release-runs`, {
      method: 'POST',
      body: JSON.stringify(options),
    })
    return json as ReleaseRunAnswer
  },

  async markOrder(
    id: Identifier,
    status: 'success' | 'fail',
    details: { confirmationNumber?: string; reason?: string } = {}
  ) {
    const { json } = await httpClient(`${API_URL}/orders/${encodeURIComponent(id)}/mark`, {
      method: 'POST',
      body: JSON.stringify({ status, ...details }),
    })
    return json
  },

  /** Deleting an order cancels it; the server keeps the row (Cancelled) and answers it. */
  async cancelOrder(id: Identifier, reason?: string) {
    const { json } = await httpClient(`${API_URL}/orders/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      body: JSON.stringify(reason ? { reason } : {}),
    })
    return json
  },

  async resendEmail(id: Identifier) {
    const { json } = await httpClient(`${API_URL}/orders/resendEmail/${encodeURIComponent(id)}`)
    return json
  },

  /** The money tools: refund (amount in dollars, all that is left if absent), waive, retry, correct. */
  async orderTool(
    id: Identifier,
    tool: 'refund' | 'waive-fee' | 'retry' | 'correct',
    body: { reason: string; amount?: number; reasonCode?: string }
  ) {
    const { json } = await httpClient(`${API_URL}/orders/${encodeURIComponent(id)}/${tool}`, {
      method: 'POST',
      body: JSON.stringify(body),
    })
    return json
  },

  /** Resend within a scope; with dryRun the answer only counts the e-mails (`emails`). */
  async resendAll(scope: {
    productId?: number
    status?: string
    runId?: number
    dryRun?: boolean
  }) {
    const query = new URLSearchParams(
      Object.entries(scope)
        .filter(([, value]) => value !== undefined && value !== '' && value !== null)
        .map(([key, value]) => [key, String(value)])
    )
    const { json } = await httpClient(`${API_URL}/orders/resendAll?${query}`)
    return json
  },

  /** ACO JSON reveals card data: the reason is required and the server audits it. */
  async downloadAco(id: Identifier, format: AcoFormat, reason: string) {
    const query = new URLSearchParams({ format, reason })
    const response = await fetchWithToken(
      `${API_URL}/aco/getJSON/${encodeURIComponent(id)}?${query}`
    )
    await downloadResponse(response, `order-${id}-${format}.${format === 'csv' ? 'csv' : 'json'}`)
  },

  /** A message in review tried against an order (audited; it still needs a valid signature). */
  async assignMail(id: Identifier, orderId: string, reason: string) {
    const { json } = await httpClient(`${API_URL}/mail-messages/${encodeURIComponent(id)}/assign`, {
      method: 'POST',
      body: JSON.stringify({ orderId, reason }),
    })
    return json
  },

  /** A message in review set aside for good (audited). */
  async dismissMail(id: Identifier, reason: string) {
    const { json } = await httpClient(
      `${API_URL}/mail-messages/${encodeURIComponent(id)}/dismiss`,
      {
        method: 'POST',
        body: JSON.stringify({ reason }),
      }
    )
    return json
  },

  async exportSubscribers(filter: Record<string, unknown>) {
    const query = new URLSearchParams({ filter: JSON.stringify(filter ?? {}) })
    const response = await fetchWithToken(`${API_URL}/subscribers/export.csv?${query}`)
    await downloadResponse(response, 'subscribers.csv')
  },
} satisfies DataProvider & Record<string, unknown>

export type DropslotDataProvider = typeof dataProvider
