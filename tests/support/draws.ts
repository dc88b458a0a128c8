import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type User from '#accounts/models/user'
import type Product from '#catalog/models/product'
import { newDrawSeed } from '#catalog/services/product_admin_service'
import { productFor } from '#tests/helpers'

/** Test cards with different numbers: one draw entry per card. */
export const DRAW_CARDS = [
  '4242424242424242',
  '5555555555554444',
  '4000056655665556',
  '378282246310005',
]

/** A draw product taking entries now (2 slots unless told otherwise). */
export async function drawProduct(overrides: Record<string, unknown> = {}) {
  const { seed, commitment } = newDrawSeed()
  return productFor({
    releaseMode: 'draw',
    entryOpensAt: DateTime.now().minus({ hours: 1 }).startOf('second'),
    entryClosesAt: DateTime.now().plus({ hours: 1 }).startOf('second'),
    drawSeed: seed,
    drawCommitment: commitment,
    totalStock: 2,
    stockTaken: 0,
    ...overrides,
  })
}

/** A profile's fields with the given card and street (the two things an entry is known by). */
export function drawProfileData(index: number, card: string, street: string) {
  const address = {
    address1: street,
    address2: '',
    firstName: 'Draw',
    lastName: `Entrant${index}`,
    city: 'Springfield',
    zip: '12345',
    state: 'IL',
    country: 'US',
  }
  return {
    shipping: address,
    billing: address,
    card: {
      name: 'Draw Entrant',
      number: card,
      code: '123',
      month: '12',
      year: String((DateTime.now().year + 2) % 100),
    },
  }
}

/** Deletes a committed draw product with its entries, orders and what they wrote. */
export async function removeDraw(product: Product, users: User[]) {
  const orderRows = await db.from('orders').where('product_id', product.id).select('id')
  const orderIds = orderRows.map((row) => row.id)
  await db.from('draw_entries').where('product_id', product.id).delete()
  await db.from('draw_blocks').where('product_id', product.id).delete()
  await db.from('email_messages').whereIn('order_id', orderIds).delete()
  await db.from('order_events').whereIn('order_id', orderIds).delete()
  await db.from('payment_ledger').whereIn('order_id', orderIds).delete()
  await db.from('orders').where('product_id', product.id).delete()
  await db
    .from('audit_logs')
    .where('subject_type', 'product')
    .where('subject_id', String(product.id))
    .delete()
  await db.from('products').where('id', product.id).delete()
  await db
    .from('profiles')
    .whereIn(
      'user_id',
      users.map((user) => user.id)
    )
    .delete()
}
