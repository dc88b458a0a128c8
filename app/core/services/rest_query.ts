import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import type { ModelQueryBuilderContract, LucidModel } from '@adonisjs/lucid/types/model'
import { AppError } from '#core/exceptions/app_error'
import { sqlTime } from '#core/helpers/sql_time'

/*
| The one implementation of ra-data-simple-rest's list dialect for every admin resource:
|
|   GET /api/admin/products?sort=["productTitle","ASC"]&range=[0,24]&filter={"q":"dunk"}
|   -> 200, Content-Range: products 0-24/319, body: [ {...}, ... ]
|
| A resource declares which fields sort, which filters exist (each with its own value parser)
| and which columns `q` searches; anything else in the query is a clear 400, never a 500.
*/

export type Query = ModelQueryBuilderContract<LucidModel, any>
export type SortDirection = 'asc' | 'desc'

/** Largest page a caller gets; ra's export asks for 1000 rows, so that is the cap. */
export const MAX_PAGE_SIZE = 1000

export type FilterDefinition<T = any> = {
  parse: (value: unknown, field: string) => T
  apply: (query: Query, value: T) => void
}

export type ListDefinition = {
  /** Name used in Content-Range (`products 0-24/319`). */
  resource: string
  /** Public sort field -> column, or a function that orders the query itself. */
  sortable: Record<string, string | ((query: Query, direction: SortDirection) => void)>
  defaultSort: [string, SortDirection]
  /** Column that breaks ties so pages never overlap. */
  tieBreaker?: string
  /** Columns `q` searches (case-insensitive substring), or a function for anything richer. */
  search?: string[] | ((query: Query, term: string) => void)
  filters: Record<string, FilterDefinition>
  /** Extra selects (counts, joins) added after the total is counted. */
  decorate?: (query: Query) => void
}

export type ListResult<Row> = { rows: Row[]; start: number; total: number; resource: string }

function invalid(field: string, message: string): never {
  throw AppError.badRequest(message, 'invalid_query', { [field]: message })
}

function parseJsonParam(raw: unknown, field: string, example: string): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined
  if (typeof raw !== 'string') invalid(field, `${field} must be JSON, for example ${example}.`)
  try {
    return JSON.parse(raw)
  } catch {
    invalid(field, `${field} must be JSON, for example ${example}.`)
  }
}

export function parseSort(raw: unknown, definition: ListDefinition): [string, SortDirection] {
  const value = parseJsonParam(raw, 'sort', '["id","ASC"]')
  if (value === undefined) return definition.defaultSort
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string'
  ) {
    invalid('sort', 'sort must be a JSON array of a field and a direction, like ["id","ASC"].')
  }
  const [field, direction] = value as [string, string]
  if (!Object.hasOwn(definition.sortable, field)) {
    invalid(
      'sort',
      `${definition.resource} cannot be sorted by "${field}". Sortable fields: ${Object.keys(definition.sortable).join(', ')}.`
    )
  }
  const normalized = direction.toLowerCase()
  if (normalized !== 'asc' && normalized !== 'desc') {
    invalid('sort', 'The sort direction must be ASC or DESC.')
  }
  return [field, normalized]
}

export function parseRange(raw: unknown): { start: number; end: number } {
  const value = parseJsonParam(raw, 'range', '[0,24]')
  if (value === undefined) return { start: 0, end: MAX_PAGE_SIZE - 1 }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((item) => Number.isSafeInteger(item) && item >= 0) ||
    value[1] < value[0]
  ) {
    invalid('range', 'range must be a JSON array [start, end] of whole numbers with start <= end.')
  }
  const [start, end] = value as [number, number]
  return { start, end: Math.min(end, start + MAX_PAGE_SIZE - 1) }
}

export function parseFilter(raw: unknown, definition: ListDefinition) {
  const value = parseJsonParam(raw, 'filter', '{"q":"jordan"}')
  if (value === undefined) return []
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid('filter', 'filter must be a JSON object, like {"q":"jordan"}.')
  }
  const applied: Array<() => (query: Query) => void> = []
  for (const [field, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    if (fieldValue === undefined || fieldValue === null || fieldValue === '') continue
    if (field === 'q' && definition.search) {
      const term = text(200)(fieldValue, 'q').trim()
      if (term) applied.push(() => (query) => applySearch(query, definition.search!, term))
      continue
    }
    const filter = Object.hasOwn(definition.filters, field) ? definition.filters[field] : null
    if (!filter) {
      const known = [...(definition.search ? ['q'] : []), ...Object.keys(definition.filters)]
      invalid(
        'filter',
        `${definition.resource} cannot be filtered by "${field}". Filters: ${known.join(', ')}.`
      )
    }
    const parsed = filter.parse(fieldValue, field)
    applied.push(() => (query) => filter.apply(query, parsed))
  }
  return applied.map((build) => build())
}

function applySearch(query: Query, search: NonNullable<ListDefinition['search']>, term: string) {
  if (typeof search === 'function') return search(query, term)
  query.where((group) => {
    for (const column of search) group.orWhere((inner) => whereContains(inner, column, term))
  })
}

/** Case-insensitive substring match that treats % and _ in the term literally (both dialects). */
export function whereContains(query: Query, column: string, term: string) {
  const escaped = term.toLowerCase().replace(/[!%_]/g, (char) => `!${char}`)
  query.whereRaw(`lower(${column}) like ? escape '!'`, [`%${escaped}%`])
}

/**
 * Runs a list request: filters, counts, sorts, slices. The total counts every row matching the
 * filters, so the console's pagination is right.
 */
/**
 * A row of a console list: the owning module's record (its columns) with what the list's query
 * added (`$extras`: counts, a customer's uuid), as Lucid's paged rows carry them.
 */
export type Listed<Row> = Row & { readonly $extras: Record<string, unknown> }

export async function runList<Row>(
  query: Query,
  definition: ListDefinition,
  qs: Record<string, unknown>,
  present: (model: any) => Row
): Promise<ListResult<Row>> {
  const [sortField, direction] = parseSort(qs.sort, definition)
  const { start, end } = parseRange(qs.range)
  for (const apply of parseFilter(qs.filter, definition)) apply(query)

  const counted = await query.clone().count('* as total')
  const total = Number(counted[0]?.$extras.total ?? 0)

  definition.decorate?.(query)
  const sorter = definition.sortable[sortField]
  if (typeof sorter === 'function') sorter(query, direction)
  else query.orderBy(sorter, direction)
  query.orderBy(definition.tieBreaker ?? 'id', direction)

  const models = start < total ? await query.offset(start).limit(end - start + 1) : []
  return { rows: models.map(present), start, total, resource: definition.resource }
}

/** Writes the list headers ra-data-simple-rest reads and returns the body. */
export function sendList<Row>(response: HttpContext['response'], result: ListResult<Row>) {
  const { rows, start, total, resource } = result
  const span = rows.length > 0 ? `${start}-${start + rows.length - 1}` : '*'
  response.header('Content-Range', `${resource} ${span}/${total}`)
  response.header('X-Total-Count', String(total))
  return rows
}

/* ------------------------------------------------------------------ filter value parsers */

export function text(max = 200) {
  return (value: unknown, field: string): string => {
    if (typeof value === 'number') value = String(value)
    if (typeof value !== 'string' || value.length > max) {
      invalid('filter', `Filter "${field}" must be text of at most ${max} characters.`)
    }
    return value
  }
}

export function integer() {
  return (value: unknown, field: string): number => {
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
    if (!Number.isSafeInteger(number) || (number as number) < 0) {
      invalid('filter', `Filter "${field}" must be a whole number.`)
    }
    return number as number
  }
}

export function uuid() {
  return (value: unknown, field: string): string => {
    if (
      typeof value !== 'string' ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
    ) {
      invalid('filter', `Filter "${field}" must be an id (UUID).`)
    }
    return value.toLowerCase()
  }
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (value: unknown, field: string): T => {
    if (typeof value !== 'string' || !values.includes(value as T)) {
      invalid('filter', `Filter "${field}" must be one of: ${values.join(', ')}.`)
    }
    return value as T
  }
}

export function boolean() {
  return (value: unknown, field: string): boolean => {
    if (value === true || value === 'true' || value === 1 || value === '1') return true
    if (value === false || value === 'false' || value === 0 || value === '0') return false
    invalid('filter', `Filter "${field}" must be true or false.`)
  }
}

/** A list of values, or one value (react-admin sends either). At most 1000. */
export function many<T>(parse: (value: unknown, field: string) => T) {
  return (value: unknown, field: string): T[] => {
    const list = Array.isArray(value) ? value : [value]
    if (list.length === 0 || list.length > MAX_PAGE_SIZE) {
      invalid('filter', `Filter "${field}" must list between 1 and ${MAX_PAGE_SIZE} values.`)
    }
    return list.map((item) => parse(item, field))
  }
}

/**
 * A date or date-time. With `endOfDay`, a bare date (2025-03-01, what a date picker sends)
 * covers that whole day, so `createdAt_lte` includes the orders of its last day.
 */
export function date(options: { endOfDay?: boolean } = {}) {
  return (value: unknown, field: string): DateTime => {
    const parsed =
      typeof value === 'string' && value.length <= 40 ? DateTime.fromISO(value) : undefined
    if (!parsed || !parsed.isValid) {
      invalid('filter', `Filter "${field}" must be a date like 2025-03-01 or an ISO date-time.`)
    }
    const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(value as string)
    const local = parsed.toLocal()
    return bareDate && options.endOfDay ? local.endOf('day') : local
  }
}

/** Timestamps are stored as local 'yyyy-MM-dd HH:mm:ss' by both dialects (Lucid's format). */
export function sqlDateTime(value: DateTime) {
  return sqlTime(value.toLocal())
}

/* ------------------------------------------------------------------ filter builders */

export const filters = {
  equals<T>(column: string, parse: (value: unknown, field: string) => T): FilterDefinition<T> {
    return { parse, apply: (query, value) => query.where(column, value as any) }
  },
  anyOf<T>(column: string, parse: (value: unknown, field: string) => T): FilterDefinition<T[]> {
    return { parse: many(parse), apply: (query, values) => query.whereIn(column, values as any[]) }
  },
  from(column: string): FilterDefinition<DateTime> {
    return { parse: date(), apply: (query, value) => query.where(column, '>=', sqlDateTime(value)) }
  },
  until(column: string): FilterDefinition<DateTime> {
    return {
      parse: date({ endOfDay: true }),
      apply: (query, value) => query.where(column, '<=', sqlDateTime(value)),
    }
  },
  contains(column: string): FilterDefinition<string> {
    return { parse: text(200), apply: (query, value) => whereContains(query, column, value) }
  },
}
