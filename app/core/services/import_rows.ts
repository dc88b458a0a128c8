import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { errors as vineErrors } from '@vinejs/vine'

/*
| Files the operator imports (products, a bot's results): a JSON array or a CSV with a header
| line, read into rows; a bad row is told by its number and its fields' messages.
*/

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

export function pick(row: Record<string, unknown>, ...names: string[]) {
  for (const name of names) {
    const value = row[name]
    if (value !== undefined && value !== null && value !== '') return value
  }
  return undefined
}

export function messageOf(error: unknown) {
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
