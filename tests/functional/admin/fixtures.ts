import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import type User from '#accounts/models/user'
import type Product from '#catalog/models/product'
import Order, { type OrderStatus } from '#orders/models/order'
import { ProductFactory } from '#database/factories/product_factory'
import { UserFactory } from '#database/factories/user_factory'
import { slotChoiceColumns, type SlotChoices } from '#orders/services/slot_choice_columns'

/**
 * Orders as the money path will leave them, written straight to the table: the admin read side
 * is tested without depending on the checkout service (built in another branch).
 */
export async function makeOrder(
  overrides: {
    user?: User
    product?: Product
    status?: OrderStatus
    createdAt?: DateTime
    email?: string
    priceCents?: number
    promoCode?: string | null
    size?: string
    choices?: SlotChoices
  } = {}
) {
  const user = overrides.user ?? (await UserFactory.create())
  const product = overrides.product ?? (await ProductFactory.create())
  const status = overrides.status ?? 'pending'
  const active = ['pending', 'processing', 'success'].includes(status)
  return Order.create({
    userId: user.id,
    productId: product.id,
    profileId: randomUUID(),
    productTitle: product.title,
    basePriceCents: product.priceCents,
    priceCents: overrides.priceCents ?? product.priceCents,
    promoCode: overrides.promoCode ?? null,
    promoPercent: overrides.promoCode ? 10 : null,
    style: product.styleList[0] ?? 'OS',
    size: overrides.size ?? product.sizes[0],
    email: overrides.email ?? user.email,
    name: user.name,
    status,
    activeSlot: active ? 1 : null,
    acoVault: 'v1:sealed-test-blob',
    ...(overrides.choices ? slotChoiceColumns.write(overrides.choices) : {}),
    ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
  })
}

/** A valid product body as the console (and the spec's create call) sends it. */
export function productBody(overrides: Record<string, unknown> = {}) {
  return {
    productTitle: 'Air Max 1 Patta',
    productImage: 'https://images.example.test/am1.png',
    price: 25,
    sizeType: 'shoe',
    sizes: ['8', '8.5', '9', '10'],
    styles: 'Waves / Noise Aqua,Monarch',
    tags: ['nike'],
    avail: true,
    totalStock: 100,
    releaseAt: DateTime.now().plus({ days: 2 }).toUTC().toISO(),
    ...overrides,
  }
}
