/*
| The raw baseline of the drop benchmark: a minimal node:http server doing the same work per
| checkout as POST /api/checkout/withprofile, with no framework, no ORM and no validation library:
| bearer token lookup and sha256 check, the customer, the product, the profile's ownership, the
| card on file, the sealed order snapshot, then one transaction (conditional slot UPDATE + order
| INSERT, the unique index refusing duplicates) and the order's e-mail outbox record.
|
| Run by bench/drop.js as its own process: BASELINE_DB=mysql|sqlite, BASELINE_DATABASE or
| BASELINE_SQLITE_PATH, BASELINE_PORT, VAULT_KEYS, DB_POOL_MAX.
*/
import { createServer } from 'node:http'
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { connect, sqlTime, vaultFrom } from './lib/store.js'

const options = {
  db: process.env.BASELINE_DB ?? 'mysql',
  database: process.env.BASELINE_DATABASE,
  path: process.env.BASELINE_SQLITE_PATH,
  poolSize: Number(process.env.DB_POOL_MAX ?? 10),
  procedure: process.env.BASELINE_PROCEDURE === '1',
}
const client = await connect(options)
const vault = vaultFrom(process.env.VAULT_KEYS)

class HttpError extends Error {
  constructor(status, code, message) {
    super(message)
    this.status = status
    this.code = code
  }
}

async function authenticate(header) {
  const match = /^Bearer oat_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!match) throw new HttpError(401, 'unauthorized', 'Unauthorized access')
  const id = Number(Buffer.from(match[1], 'base64url').toString())
  const secret = Buffer.from(match[2], 'base64url').toString()
  const [token] = await client.query(
    `SELECT id, tokenable_id, hash, expires_at FROM auth_access_tokens WHERE id = ? AND type = 'auth_token' LIMIT 1`,
    [id]
  )
  const hash = createHash('sha256').update(secret).digest('hex')
  if (
    !token ||
    !timingSafeEqual(Buffer.from(hash), Buffer.from(token.hash)) ||
    (token.expires_at && token.expires_at < sqlTime())
  ) {
    throw new HttpError(401, 'unauthorized', 'Unauthorized access')
  }
  const [user] = await client.query(
    'SELECT id, email, name, gateway_customer_id, card_payment_method_id FROM users WHERE id = ?',
    [token.tokenable_id]
  )
  if (!user) throw new HttpError(401, 'unauthorized', 'Unauthorized access')
  return user
}

const TAKE_SLOT = `UPDATE products SET stock_taken = stock_taken + 1 WHERE id = ? AND avail = 1
  AND stock_taken < total_stock AND (release_at IS NULL OR release_at > ?)`
const INSERT_ORDER = `INSERT INTO orders (public_id, user_id, product_id, profile_id, product_title,
  base_price_cents, price_cents, style, size, email, name, status, active_slot, aco_vault,
  hold_status, hold_amount_cents, hold_attempts, fee_status, fee_attempts, refunded_cents,
  created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 1, ?, 'queued', 100, 0,
  'none', 0, 0, ?, ?)`

function isDuplicate(error) {
  return error?.code === 'ER_DUP_ENTRY' || error?.code === 'SQLITE_CONSTRAINT_UNIQUE'
}

async function checkout(user, body) {
  const productId = Number(body.productId)
  if (!Number.isSafeInteger(productId) || productId <= 0 || typeof body.profileId !== 'string') {
    throw new HttpError(400, 'insufficient_checkout_data', 'insufficient checkout data')
  }
  const [product] = await client.query(
    'SELECT id, title, price_cents, size_type, styles, sizes, avail, release_at FROM products WHERE id = ?',
    [productId]
  )
  if (!product || !product.avail)
    throw new HttpError(404, 'product_not_found', 'Product not found.')
  const style = String(body.style ?? 'OS')
  const size = String(body.size ?? 'OS')
  if (!product.styles.split(',').includes(style) || !JSON.parse(product.sizes).includes(size)) {
    throw new HttpError(422, 'validation_failed', 'Please choose one of the sizes of this product.')
  }
  const [profile] = await client.query(
    'SELECT * FROM profiles WHERE public_id = ? AND user_id = ? LIMIT 1',
    [body.profileId, user.id]
  )
  if (!profile) throw new HttpError(404, 'profile_not_found', 'Profile not found.')
  if (!user.gateway_customer_id || !user.card_payment_method_id) {
    throw new HttpError(
      402,
      'card_required',
      'Please add a card to your account before checking out.'
    )
  }
  const now = sqlTime()
  if (product.release_at && product.release_at <= now) {
    throw new HttpError(409, 'released', 'This release has already dropped.')
  }
  const snapshot = vault.seal({
    profile: {
      profileId: profile.public_id,
      profileName: profile.profile_name,
      email: profile.email,
      phone: profile.phone,
      shipping: JSON.parse(profile.shipping),
      billing: JSON.parse(profile.billing),
    },
    card: vault.open(profile.card_vault),
    order: { productId: product.id, productTitle: product.title, style, size },
  })
  const order = {
    publicId: randomUUID(),
    productId: product.id,
    productTitle: product.title,
    priceCents: product.price_cents,
    style,
    size,
    email: user.email,
    name: user.name,
    status: 'pending',
    orderDate: new Date(now.replace(' ', 'T') + 'Z').toISOString(),
    profileId: profile.public_id,
    hold: { status: 'queued', amountCents: 100 },
  }
  const params = [
    order.publicId,
    user.id,
    product.id,
    profile.public_id,
    product.title,
    product.price_cents,
    product.price_cents,
    style,
    size,
    user.email,
    user.name,
    snapshot,
    now,
    now,
  ]
  const soldOut = () => new HttpError(409, 'sold_out', 'Sorry, this release is sold out.')
  let orderId
  try {
    if (client.kind === 'sqlite') {
      orderId = client.transactionSync(() => {
        if (client.querySync(TAKE_SLOT, [product.id, now]).affectedRows !== 1) throw soldOut()
        return client.querySync(INSERT_ORDER, params).insertId
      })
    } else if (options.procedure) {
      // --baseline-procedure: the app's own stored procedure (migrations 0500 and 0960: a slot
      // without choices), one round trip.
      const [rows] = await client.query(
        `CALL take_slot_and_open_order(0, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, 'pending', 1,
          ?, 'queued', 100, 0, 'none', 0, NULL, NULL, NULL)`,
        [now, ...params.slice(0, -2)]
      )
      orderId = rows[0]?.order_id
      if (!orderId) throw soldOut()
    } else {
      orderId = await client.transaction(async (trx) => {
        if ((await trx.query(TAKE_SLOT, [product.id, now])).affectedRows !== 1) throw soldOut()
        return (await trx.query(INSERT_ORDER, params)).insertId
      })
    }
  } catch (error) {
    if (isDuplicate(error)) {
      throw new HttpError(
        409,
        'duplicate',
        'You already have a slot for this release with this profile.'
      )
    }
    throw error
  }
  await client.query(
    `INSERT INTO email_messages (to_address, template, subject, text_body, html_body, user_id,
      order_id, dedupe_key, status, attempts, created_at, updated_at)
     VALUES (?, 'order_received', ?, ?, ?, ?, ?, ?, 'recorded', 0, ?, ?)`,
    [
      user.email,
      `We received your order for ${product.title}`,
      `Order ${order.publicId}: ${product.title}, ${style} ${size}.`,
      `<p>Order ${order.publicId}: ${product.title}, ${style} ${size}.</p>`,
      user.id,
      orderId,
      `order:${orderId}:received`,
      now,
      now,
    ]
  )
  return order
}

function send(response, status, payload) {
  const body = JSON.stringify(payload)
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  response.end(body)
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') {
    // Like the app's health check: one round trip to the database.
    return client.query('SELECT 1').then(
      () => send(response, 200, { status: 'ok', database: 'ok' }),
      () => send(response, 503, { status: 'degraded', database: 'unreachable' })
    )
  }
  if (request.method !== 'POST' || request.url !== '/api/checkout/withprofile') {
    return send(response, 404, { success: false, error: 'Not found', code: 'not_found' })
  }
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', async () => {
    try {
      const user = await authenticate(request.headers.authorization)
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString() || '{}')
      } catch {
        throw new HttpError(400, 'bad_request', 'Invalid JSON')
      }
      const order = await checkout(user, body)
      send(response, 201, { success: true, order })
    } catch (error) {
      if (error instanceof HttpError) {
        return send(response, error.status, {
          success: false,
          error: error.message,
          code: error.code,
        })
      }
      // The message only: a driver's error carries the statement's values, a sealed card among them.
      console.error(`checkout failed: ${error.code ?? ''} ${error.message}`)
      send(response, 500, { success: false, error: 'Server error', code: 'server_error' })
    }
  })
})

server.keepAliveTimeout = 65_000
server.listen(Number(process.env.BASELINE_PORT), '127.0.0.1', () => {
  process.send?.('ready')
})
process.on('SIGTERM', () => {
  server.close()
  client.close().finally(() => process.exit(0))
})
