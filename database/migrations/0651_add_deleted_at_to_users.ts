import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A deleted account keeps its row, emptied of personal and card data, because its orders (the
 * records the law needs) point to it; `deleted_at` says when it was deleted.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.timestamp('deleted_at').nullable()
    })
  }

  async down() {
    this.schema.alterTable('users', (table) => {
      table.dropColumn('deleted_at')
    })
  }
}
