import vine from '@vinejs/vine'
import { DateTime } from 'luxon'

/*
| Field shapes and rule messages the modules' validators share, so a date or a list is checked
| and worded the same way in the console, the CLI's imports and the API.
*/

export const ruleMessages = {
  required: '{{ field }} is required.',
  string: '{{ field }} must be text.',
  number: '{{ field }} must be a number.',
  boolean: '{{ field }} must be true or false.',
  array: '{{ field }} must be a list.',
  enum: '{{ field }} must be one of: {{ choices }}.',
  minLength: '{{ field }} must be at least {{ min }} characters.',
  maxLength: '{{ field }} must be at most {{ max }} characters.',
  min: '{{ field }} must be at least {{ min }}.',
  max: '{{ field }} must be at most {{ max }}.',
  withoutDecimals: '{{ field }} must be a whole number.',
  decimal: '{{ field }} can have at most 2 decimals.',
  unionOfTypes: '{{ field }} must be a list or comma-separated text.',
  regex: '{{ field }} has an invalid format.',
}

/** An ISO 8601 date-time (what the console's date pickers send), as a luxon DateTime. */
const isoDateTime = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string' || value.length > 40 || !DateTime.fromISO(value).isValid) {
    field.report('{{ field }} must be a date and time like 2025-03-01T10:00:00Z.', 'date', field)
  }
})
export const dateTime = () =>
  vine
    .string()
    .trim()
    .use(isoDateTime())
    // VineJS runs the transform for a null the field allows: it stays null, not an invalid date.
    .transform((value) => (typeof value === 'string' ? DateTime.fromISO(value).toLocal() : null))

/** A list of short texts, as an array or comma-separated text (the spec sends text). */
const listOrTextRule = vine.createRule((value, options: { itemMax: number }, field) => {
  const items = typeof value === 'string' ? value.split(',') : value
  if (
    !Array.isArray(items) ||
    items.length > 100 ||
    !items.every((item) => typeof item === 'string' && item.trim().length <= options.itemMax)
  ) {
    field.report(
      `{{ field }} must be a list or comma-separated text (each at most ${options.itemMax} characters).`,
      'listOrText',
      field
    )
  }
})
export const listOrText = (itemMax: number) =>
  vine
    .any()
    .use(listOrTextRule({ itemMax }))
    .transform((value) => value as string | string[])
