import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A draw's replacements, published with its proof: `draw_entries.replaced_by` is the entry id of
 * the alternate who took the place of a winner who dropped out (set with `replaced_at`; null
 * when no alternate was left). Entries left out of the list frozen at the close keep
 * `result = 'skipped'` from the close on.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('draw_entries', (table) => {
      table.string('replaced_by', 36).nullable()
    })
  }

  async down() {
    this.schema.alterTable('draw_entries', (table) => {
      table.dropColumn('replaced_by')
    })
  }
}
