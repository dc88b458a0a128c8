import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The time zone a release is announced in (an IANA name, "America/New_York" for the retailers
 * Dropslot serves today): the storefront shows a release in the visitor's own zone and names the
 * release's zone beside it.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('products', (table) => {
      table.string('release_time_zone', 64).notNullable().defaultTo('America/New_York')
    })
  }

  async down() {
    this.schema.alterTable('products', (table) => {
      table.dropColumn('release_time_zone')
    })
  }
}
