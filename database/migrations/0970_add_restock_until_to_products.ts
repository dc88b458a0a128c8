import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `products.restock_until`: the time until which release day keeps trying the product for
 * restocks after it drops (sold out at the drop is not yet a failure); null: no restock window.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('products', (table) => {
      table.timestamp('restock_until').nullable()
    })
  }

  async down() {
    this.schema.alterTable('products', (table) => {
      table.dropColumn('restock_until')
    })
  }
}
