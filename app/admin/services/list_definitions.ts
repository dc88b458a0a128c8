import db from '@adonisjs/lucid/services/db'
import { ACCOUNT_ROLES } from '#shared/staff_roles'
import { DateTime } from 'luxon'
import { ACTIVE_STATUSES } from '#orders/services/order_queries'
import {
  boolean,
  filters,
  integer,
  oneOf,
  sqlDateTime,
  text,
  uuid,
  whereContains,
  type ListDefinition,
  type Query,
} from '#core/services/rest_query'

/*
| What each admin resource can be sorted, filtered and searched by. Filter names follow
| react-admin's conventions (`createdAt_gte`, `createdAt_lte`, `id` as a list for getMany).
*/

import { FEE_DUE_STATUSES, ORDER_STATUSES } from '#shared/vocabulary'
import { orderIdOfNumber } from '#orders/services/order_numbers'
import { productQueries } from '#catalog/services/product_queries'

export { ORDER_STATUSES }

const activeOrdersOfProduct = () =>
  db
    .from('orders')
    .count('*')
    .whereRaw('orders.product_id = products.id')
    .whereIn('orders.status', ACTIVE_STATUSES)

export const productList: ListDefinition = {
  resource: 'products',
  sortable: {
    id: 'id',
    productId: 'id',
    productTitle: 'title',
    price: 'price_cents',
    releaseAt: 'release_at',
    totalStock: 'total_stock',
    stockTaken: 'stock_taken',
    avail: 'avail',
    createdAt: 'created_at',
    fill: (query, direction) =>
      query.orderByRaw(
        `(stock_taken * 1.0) / (case when total_stock = 0 then 1 else total_stock end) ${direction}`
      ),
  },
  defaultSort: ['releaseAt', 'desc'],
  search: ['title', 'slug', 'tags'],
  filters: {
    id: filters.anyOf('id', integer()),
    tags: filters.contains('tags'),
    sizeType: filters.equals('size_type', oneOf(['shoe', 'clothing', 'OS'] as const)),
    avail: filters.equals('avail', boolean()),
    releaseAt_gte: filters.from('release_at'),
    releaseAt_lte: filters.until('release_at'),
    upcoming: {
      parse: boolean(),
      apply: (query, upcoming) => {
        const now = sqlDateTime(DateTime.now())
        if (upcoming) query.where('release_at', '>', now)
        else query.where((inner) => inner.whereNull('release_at').orWhere('release_at', '<=', now))
      },
    },
    soldOut: {
      parse: boolean(),
      apply: (query, soldOut) =>
        soldOut
          ? query.whereRaw('stock_taken >= total_stock')
          : query.whereRaw('stock_taken < total_stock'),
    },
  },
  decorate: (query) => {
    query.select('products.*').select(activeOrdersOfProduct().as('active_orders'))
    productQueries.withRetailers(query)
  },
}

const customerUuidOfOrder = () =>
  db.from('users').select('uuid').whereRaw('users.id = orders.user_id')
const profileNameOfOrder = () =>
  db.from('profiles').select('profile_name').whereRaw('profiles.public_id = orders.profile_id')

function whereCustomerUuid(query: Query, column: string, ids: string[]) {
  query.whereIn(column, db.from('users').select('id').whereIn('uuid', ids))
}

export const orderList: ListDefinition = {
  resource: 'orders',
  sortable: {
    id: 'id',
    orderDate: 'created_at',
    status: 'status',
    price: 'price_cents',
    productTitle: 'product_title',
    email: 'email',
    name: 'name',
    size: 'size',
    style: 'style',
  },
  defaultSort: ['orderDate', 'desc'],
  search: (query, term) => {
    // A customer quoting their confirmation number (DS-7K3Q9X) finds their order.
    const quoted = orderIdOfNumber(term)
    query.where((group) => {
      if (quoted !== null) group.orWhere('orders.id', quoted)
      group
        .orWhere((inner) => whereContains(inner, 'email', term))
        .orWhere((inner) => whereContains(inner, 'name', term))
        .orWhere((inner) => whereContains(inner, 'public_id', term))
        .orWhere((inner) => whereContains(inner, 'confirmation_number', term))
        .orWhere((inner) => whereContains(inner, 'product_title', term))
    })
  },
  filters: {
    id: filters.anyOf('public_id', uuid()),
    status: filters.anyOf('status', oneOf(ORDER_STATUSES)),
    productId: filters.anyOf('product_id', integer()),
    customerId: {
      parse: (value, field) =>
        (Array.isArray(value) ? value : [value]).map((v) => uuid()(v, field)),
      apply: (query, ids: string[]) => whereCustomerUuid(query, 'user_id', ids),
    },
    email: filters.contains('email'),
    promoCode: {
      parse: text(40),
      apply: (query, code: string) => query.where('promo_code', code.trim().toUpperCase()),
    },
    feeDue: {
      parse: boolean(),
      apply: (query, due) =>
        due
          ? query.where('status', 'success').whereIn('fee_status', FEE_DUE_STATUSES)
          : query.where((inner) =>
              inner.whereNot('status', 'success').orWhereNotIn('fee_status', FEE_DUE_STATUSES)
            ),
    },
    orderDate_gte: filters.from('created_at'),
    orderDate_lte: filters.until('created_at'),
    createdAt_gte: filters.from('created_at'),
    createdAt_lte: filters.until('created_at'),
  },
  decorate: (query) => {
    query
      .select('orders.*')
      .select(customerUuidOfOrder().as('customer_uuid'))
      .select(profileNameOfOrder().as('profile_name'))
  },
}

export const customerList: ListDefinition = {
  resource: 'customers',
  sortable: {
    id: 'id',
    email: 'email',
    name: 'name',
    role: 'role',
    createdAt: 'created_at',
    ordersCount: (query, direction) => query.orderBy('orders_count', direction),
  },
  defaultSort: ['createdAt', 'desc'],
  search: ['email', 'name', 'phone'],
  filters: {
    id: filters.anyOf('uuid', uuid()),
    role: filters.equals('role', oneOf(ACCOUNT_ROLES)),
    cardOnFile: {
      parse: boolean(),
      apply: (query, onFile) =>
        onFile ? query.whereNotNull('card_last4') : query.whereNull('card_last4'),
    },
    createdAt_gte: filters.from('created_at'),
    createdAt_lte: filters.until('created_at'),
  },
  decorate: (query) => {
    query
      .select('users.*')
      .select(db.from('orders').count('*').whereRaw('orders.user_id = users.id').as('orders_count'))
      .select(
        db.from('profiles').count('*').whereRaw('profiles.user_id = users.id').as('profiles_count')
      )
  },
}

export const promoCodeList: ListDefinition = {
  resource: 'promo-codes',
  sortable: {
    id: 'id',
    code: 'code',
    percent: 'percent',
    uses: 'uses',
    active: 'active',
    startsAt: 'starts_at',
    expiresAt: 'expires_at',
    createdAt: 'created_at',
  },
  defaultSort: ['createdAt', 'desc'],
  search: ['code'],
  filters: {
    id: filters.anyOf('id', integer()),
    active: filters.equals('active', boolean()),
  },
}

export const subscriberList: ListDefinition = {
  resource: 'subscribers',
  sortable: {
    id: 'id',
    email: 'email',
    source: 'source',
    createdAt: 'created_at',
    unsubscribedAt: 'unsubscribed_at',
  },
  defaultSort: ['createdAt', 'desc'],
  search: ['email'],
  filters: {
    id: filters.anyOf('id', integer()),
    source: filters.equals('source', text(32)),
    subscribed: {
      parse: boolean(),
      apply: (query, subscribed) =>
        subscribed ? query.whereNull('unsubscribed_at') : query.whereNotNull('unsubscribed_at'),
    },
    createdAt_gte: filters.from('created_at'),
    createdAt_lte: filters.until('created_at'),
  },
}

export const emailList: ListDefinition = {
  resource: 'emails',
  sortable: {
    id: 'id',
    createdAt: 'created_at',
    sentAt: 'sent_at',
    keptAt: 'kept_at',
    toAddress: 'to_address',
    template: 'template',
    status: 'status',
    attempts: 'attempts',
  },
  defaultSort: ['createdAt', 'desc'],
  search: ['to_address', 'subject'],
  filters: {
    id: filters.anyOf('id', integer()),
    status: filters.anyOf(
      'status',
      oneOf(['queued', 'sent', 'failed', 'recorded', 'kept'] as const)
    ),
    template: filters.equals('template', text(48)),
    toAddress: filters.contains('to_address'),
    orderId: {
      parse: uuid(),
      apply: (query, id: string) =>
        query.whereIn('order_id', db.from('orders').select('id').where('public_id', id)),
    },
    customerId: {
      parse: uuid(),
      apply: (query, id: string) => whereCustomerUuid(query, 'user_id', [id]),
    },
    createdAt_gte: filters.from('created_at'),
    createdAt_lte: filters.until('created_at'),
  },
  decorate: (query) => {
    query
      .select('email_messages.*')
      .select(
        db
          .from('orders')
          .select('public_id')
          .whereRaw('orders.id = email_messages.order_id')
          .as('order_public_id')
      )
      .select(
        db
          .from('users')
          .select('uuid')
          .whereRaw('users.id = email_messages.user_id')
          .as('customer_uuid')
      )
  },
}

export const auditLogList: ListDefinition = {
  resource: 'audit-log',
  sortable: {
    id: 'id',
    createdAt: 'created_at',
    action: 'action',
    actorLabel: 'actor_label',
    subjectType: 'subject_type',
  },
  defaultSort: ['createdAt', 'desc'],
  search: ['action', 'actor_label', 'reason', 'subject_id'],
  filters: {
    id: filters.anyOf('id', integer()),
    action: filters.equals('action', text(64)),
    subjectType: filters.equals('subject_type', text(32)),
    subjectId: filters.equals('subject_id', text(64)),
    actorLabel: filters.contains('actor_label'),
    createdAt_gte: filters.from('created_at'),
    createdAt_lte: filters.until('created_at'),
  },
}
