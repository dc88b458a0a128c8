import Product from '#catalog/models/product'
import { sqlTime } from '#core/helpers/sql_time'

export { splitList } from '#catalog/models/product'

/** Products as other modules read them (release day, results), without reaching the model. */
export const productQueries = {
  query: () => Product.query(),
  find: (id: number): Promise<Product | null> => Product.find(id),

  /** Released and available, soonest first: a product made unavailable pauses its release. */
  dueForRelease: (): Promise<Product[]> =>
    Product.query()
      .where('avail', true)
      .whereNotNull('release_at')
      .where('release_at', '<=', sqlTime())
      .orderBy('release_at', 'asc'),
}
