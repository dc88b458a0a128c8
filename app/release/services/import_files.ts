import { readFile } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { errors as vineErrors } from '@vinejs/vine'
import Product from '#catalog/models/product'
import {
  productAdminService,
  slugify,
  type ProductChanges,
  type ProductFields,
} from '#catalog/services/product_admin_service'
import { createProductValidator, updateProductValidator } from '#admin/validators/admin_validators'
import { auditLog, type AuditActor } from '#core/services/audit_log_service'
import type { CheckoutResult } from '#release/services/release_results'
import { orderOutcome, type OutcomePlan } from '#release/services/order_outcome'
import { AppError } from '#core/exceptions/app_error'

export class ImportFileError extends Error {}

export type RowError = { row: number; error: string }

/** Reads a JSON array (or {results|products: [...]}) or a CSV file with a header line. */
export async function readRows(path: string, key: string): Promise<Record<string, unknown>[]> {
  let raw: string
  try {
    raw = await readFile(path, 'utf8')
  } catch {
    throw new ImportFileError(`Cannot read ${path}.`)
  }
  const type = extname(path).toLowerCase()
  if (type === '.json' || raw.trimStart().startsWith('[') || raw.trimStart().startsWith('{')) {
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      throw new ImportFileError(`${path} is not valid JSON.`)
    }
    const list = Array.isArray(value) ? value : (value as Record<string, unknown>)?.[key]
    if (!Array.isArray(list) || list.some((row) => typeof row !== 'object' || row === null)) {
      throw new ImportFileError(`${path} must hold a JSON array of objects (or {"${key}": [...]}).`)
    }
    return list as Record<string, unknown>[]
  }
  try {
    return parseCsv(raw, { columns: true, skip_empty_lines: true, trim: true, bom: true })
  } catch (error) {
    throw new ImportFileError(`${path} is not valid CSV: ${(error as Error).message}`)
  }
}

function pick(row: Record<string, unknown>, ...names: string[]) {
  for (const name of names) {
    const value = row[name]
    if (value !== undefined && value !== null && value !== '') return value
  }
  return undefined
}

function messageOf(error: unknown) {
  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    return (error.messages as { field: string; message: string }[])
      .map((item) => `${item.field}: ${item.message}`)
      .join('; ')
  }
  const candidate = error as { message?: string; errors?: Record<string, string> }
  if (candidate.errors && Object.keys(candidate.errors).length) {
    return Object.entries(candidate.errors)
      .map(([field, message]) => `${field}: ${message}`)
      .join('; ')
  }
  return candidate.message ?? String(error)
}

/** One row of a bot's results file as a result, or the reason it cannot be one. */
function resultOf(row: Record<string, unknown>): CheckoutResult {
  const orderId = pick(row, 'orderId', 'order_id', 'order', 'id')
  const rawStatus = String(pick(row, 'status', 'result', 'outcome') ?? '').toLowerCase()
  const status = ['success', 'succeeded', 'ok', 'true'].includes(rawStatus)
    ? 'success'
    : ['fail', 'failed', 'failure', 'false'].includes(rawStatus)
      ? 'fail'
      : null
  if (typeof orderId !== 'string') throw new ImportFileError('orderId is missing.')
  if (!status) throw new ImportFileError('status must be success or fail.')
  const confirmation = pick(row, 'confirmationNumber', 'confirmation_number', 'confirmation')
  const reason = pick(row, 'reason', 'error', 'message')
  const reasonCode = pick(row, 'reasonCode', 'reason_code', 'code')
  return {
    orderId,
    status,
    confirmationNumber: confirmation === undefined ? null : String(confirmation),
    reason: reason === undefined ? null : String(reason),
    reasonCode: reasonCode === undefined ? null : String(reasonCode),
  }
}

export type ImportPlanRow = OutcomePlan & { row: number }

/**
 * A bot's results file: each row an order id, success|fail, and a confirmation or reason. Only
 * orders submitted to the files engine in a release run are taken (the one outcome path checks
 * each row; a refused row is reported with its number and reason, and the others go in).
 * `dryRun` applies nothing and answers the plan: per order, the customer, the outcome and the fee
 * that would be charged. Every import (dry or not) is written to the audit log.
 */
export async function importResults(
  path: string,
  options: { actor?: AuditActor | null; dryRun?: boolean; onItem?: () => void } = {}
) {
  const rows = await readRows(path, 'results')
  const actor = options.actor ?? { label: 'files' }
  const applied: { orderId: string; status: string; feeStatus: string }[] = []
  const plan: ImportPlanRow[] = []
  const errors: (RowError & { code?: string })[] = []
  for (const [index, row] of rows.entries()) {
    try {
      const result = resultOf(row)
      if (options.dryRun) {
        const checked = await orderOutcome.plan(result, 'files')
        if ('rejection' in checked) {
          errors.push({
            row: index + 1,
            code: checked.rejection.code,
            error: checked.rejection.reason,
          })
        } else {
          plan.push({ row: index + 1, ...checked.plan })
        }
      } else {
        const finished = await orderOutcome.apply(result, {
          source: 'files',
          actor,
          via: 'orders:import-results',
        })
        applied.push({
          orderId: result.orderId,
          status: finished.order.status,
          feeStatus: finished.order.feeStatus,
        })
      }
    } catch (error) {
      const code = error instanceof AppError ? error.code : undefined
      errors.push({ row: index + 1, ...(code ? { code } : {}), error: messageOf(error) })
    }
    options.onItem?.()
  }
  await auditLog.record({
    actor,
    action: options.dryRun ? 'order.import_results_dry_run' : 'order.import_results',
    subjectType: 'order',
    meta: {
      file: basename(path),
      rows: rows.length,
      applied: applied.length,
      planned: plan.length,
      refused: errors.length,
      feeCentsPlanned: plan.reduce((sum, item) => sum + item.feeCents, 0),
    },
  })
  return { total: rows.length, dryRun: Boolean(options.dryRun), applied, plan, errors }
}

function productPayload(row: Record<string, unknown>) {
  const numeric = (value: unknown) =>
    typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value
  const bool = (value: unknown) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value
  const payload: Record<string, unknown> = {
    productTitle: pick(row, 'productTitle', 'title'),
    slug: pick(row, 'slug'),
    productImage: pick(row, 'productImage', 'image'),
    description: pick(row, 'description'),
    price: numeric(pick(row, 'price')),
    sizeType: pick(row, 'sizeType'),
    sizes: pick(row, 'sizes'),
    styles: pick(row, 'styles'),
    tags: pick(row, 'tags'),
    avail: bool(pick(row, 'avail')),
    totalStock: numeric(pick(row, 'totalStock', 'stock')),
    stockTaken: numeric(pick(row, 'stockTaken')),
    releaseAt: pick(row, 'releaseAt', 'releaseDate'),
  }
  return Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined))
}

/**
 * Imports products from a JSON array or CSV (the admin API's field names), upserting by slug
 * (given, or made from the title). Each row is validated like the admin console's form; a bad
 * row is reported with its number and the others still go in. Every change is audited.
 */
export async function importProducts(path: string, actor: AuditActor, onItem?: () => void) {
  const rows = await readRows(path, 'products')
  const created: { id: number; slug: string }[] = []
  const updated: { id: number; slug: string }[] = []
  const errors: RowError[] = []
  for (const [index, row] of rows.entries()) {
    try {
      const payload = productPayload(row)
      const slugSource = payload.slug ?? payload.productTitle
      const slug = typeof slugSource === 'string' ? slugify(slugSource) : null
      const existing = slug ? await Product.findBy('slug', slug) : null
      if (existing) {
        const data = await updateProductValidator.validate({ ...payload, slug })
        const changes: ProductChanges = {
          title: data.productTitle,
          image: data.productImage,
          description: data.description,
          priceCents: data.price === undefined ? undefined : Math.round(data.price * 100),
          sizeType: data.sizeType,
          sizes: data.sizes,
          styles: data.styles,
          tags: data.tags,
          avail: data.avail,
          totalStock: data.totalStock,
          releaseAt: data.releaseAt,
        }
        const product = await productAdminService.update(
          existing.id,
          Object.fromEntries(
            Object.entries(changes).filter(([, value]) => value !== undefined)
          ) as ProductChanges
        )
        await auditLog.record({
          actor,
          action: 'product.update',
          subjectType: 'product',
          subjectId: product.id,
          meta: { via: 'products:import' },
        })
        updated.push({ id: product.id, slug: product.slug })
      } else {
        const data = await createProductValidator.validate({ ...payload, slug })
        const fields: ProductFields = {
          title: data.productTitle,
          slug: data.slug,
          image: data.productImage,
          description: data.description,
          priceCents: Math.round(data.price * 100),
          sizeType: data.sizeType,
          sizes: data.sizes,
          styles: data.styles,
          tags: data.tags,
          avail: data.avail,
          totalStock: data.totalStock,
          stockTaken: data.stockTaken,
          releaseAt: data.releaseAt,
        }
        const product = await productAdminService.create(fields)
        await auditLog.record({
          actor,
          action: 'product.create',
          subjectType: 'product',
          subjectId: product.id,
          meta: { via: 'products:import' },
        })
        created.push({ id: product.id, slug: product.slug })
      }
    } catch (error) {
      errors.push({ row: index + 1, error: messageOf(error) })
    }
    onItem?.()
  }
  return { total: rows.length, created, updated, errors }
}
