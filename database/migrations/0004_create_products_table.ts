import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'products'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('slug', 120).notNullable().unique()
      table.string('title', 160).notNullable()
      table.string('image', 500).notNullable().defaultTo('')
      table.text('description').nullable()
      table.integer('price_cents').notNullable()
      table.string('size_type', 16).notNullable().defaultTo('shoe')
      table.string('styles', 500).notNullable().defaultTo('OS')
      table.string('tags', 200).notNullable().defaultTo('')
      table.text('sizes').notNullable()
      table.boolean('avail').notNullable().defaultTo(true)
      table.integer('total_stock').notNullable().defaultTo(0)
      table.integer('stock_taken').notNullable().defaultTo(0)
      table.timestamp('release_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').nullable()
      table.index(['avail', 'release_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
