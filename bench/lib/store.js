/*
| Database access shared by the drop benchmark and its raw baseline: one tiny interface over
| mysql2 (MariaDB) and better-sqlite3 (embedded), the card vault format of app/core/services/
| card_vault.ts, and the bulk seeding of customers, tokens, cards and profiles.
*/
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  randomUUID,
  scryptSync,
} from 'node:crypto'
import { crc32 } from 'node:zlib'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import mysql from 'mysql2/promise'
import Database from 'better-sqlite3'

/** `yyyy-MM-dd HH:mm:ss` in UTC, the format the app stores timestamps in on both databases. */
export function sqlTime(date = new Date()) {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

/** Same format as CardVault: `<keyId>:<base64(iv | tag | ciphertext)>`, AES-256-GCM. */
export function vaultFrom(vaultKeys) {
  const [id, hex] = vaultKeys.split(',')[0].split(':')
  const key = Buffer.from(hex, 'hex')
  return {
    seal(value) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const text = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
      return `${id}:${Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64')}`
    },
    open(sealed) {
      const raw = Buffer.from(sealed.slice(sealed.indexOf(':') + 1), 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]))
    },
  }
}

/**
 * An opaque access token exactly as @adonisjs/auth's DbAccessTokensProvider makes one: a random
 * seed suffixed with its CRC32, stored as the sha256 of that secret; the customer sends
 * `oat_` + base64url(id) + '.' + base64url(secret).
 */
export function accessToken(id) {
  const seed = randomBytes(30).toString('base64url').slice(0, 40)
  const secret = `${seed}${crc32(seed)}`
  return {
    hash: createHash('sha256').update(secret).digest('hex'),
    value: `oat_${Buffer.from(String(id)).toString('base64url')}.${Buffer.from(secret).toString('base64url')}`,
  }
}

/** One scrypt hash in @adonisjs/hash's PHC format, reused for every seeded customer. */
export function passwordHash(password) {
  const salt = randomBytes(16)
  const hash = scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1, maxmem: 33554432 })
  const b64 = (buffer) => buffer.toString('base64').replace(/=+$/, '')
  return `$scrypt$n=16384,r=8,p=1$${b64(salt)}$${b64(hash)}`
}

/**
 * A minimal async client: `query(sql, params)` returns rows for SELECT and
 * `{affectedRows, insertId}` otherwise; `transaction(fn)` runs fn(client) in one transaction.
 */
export async function connect(options) {
  if (options.db === 'mysql') {
    const pool = mysql.createPool({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      database: options.database,
      timezone: 'Z',
      charset: 'utf8mb4',
      connectionLimit: options.poolSize ?? 10,
      dateStrings: true,
    })
    const wrap = (runner) => ({
      async query(sql, params = []) {
        const [result] = await runner.query(sql, params)
        return Array.isArray(result)
          ? result
          : { affectedRows: result.affectedRows, insertId: result.insertId }
      },
    })
    return {
      kind: 'mysql',
      ...wrap(pool),
      async transaction(fn) {
        const conn = await pool.getConnection()
        try {
          await conn.beginTransaction()
          const value = await fn(wrap(conn))
          await conn.commit()
          return value
        } catch (error) {
          await conn.rollback().catch(() => {})
          throw error
        } finally {
          conn.release()
        }
      },
      close: () => pool.end(),
    }
  }
  const sqlite = new Database(options.path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  const statements = new Map()
  const client = {
    async query(sql, params = []) {
      let statement = statements.get(sql)
      if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)))
      if (statement.reader) return statement.all(params)
      const info = statement.run(params)
      return { affectedRows: info.changes, insertId: Number(info.lastInsertRowid) }
    },
  }
  return {
    kind: 'sqlite',
    ...client,
    /** Synchronous: better-sqlite3 has one connection, so nothing may interleave a transaction. */
    querySync(sql, params = []) {
      let statement = statements.get(sql)
      if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)))
      if (statement.reader) return statement.all(params)
      const info = statement.run(params)
      return { affectedRows: info.changes, insertId: Number(info.lastInsertRowid) }
    },
    transactionSync(fn) {
      return sqlite.transaction(fn).immediate()
    },
    async close() {
      sqlite.close()
    },
  }
}

/** Drops and recreates the benchmark's own database (never any other). */
export async function resetDatabase(options) {
  if (options.db === 'mysql') {
    if (!/^dropslot_bench[a-z_]*$/.test(options.database)) {
      throw new Error(`refusing to reset ${options.database}: not a dropslot_bench database`)
    }
    const conn = await mysql.createConnection({ host: '127.0.0.1', user: 'root', password: '' })
    await conn.query(`DROP DATABASE IF EXISTS \`${options.database}\``)
    await conn.query(`CREATE DATABASE \`${options.database}\` CHARACTER SET utf8mb4`)
    await conn.end()
    return
  }
  mkdirSync(dirname(options.path), { recursive: true })
  for (const suffix of ['', '-wal', '-shm']) rmSync(options.path + suffix, { force: true })
}

async function insertMany(client, table, rows, batch = 500) {
  const columns = Object.keys(rows[0])
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch)
    const values = chunk.map(() => `(${columns.map(() => '?').join(',')})`).join(',')
    await client.query(
      `INSERT INTO ${table} (${columns.join(',')}) VALUES ${values}`,
      chunk.flatMap((row) => columns.map((column) => row[column]))
    )
  }
}

/**
 * Seeds U customers, each with a bearer token, a saved sandbox card (the gateway's customer and
 * payment method, copied onto the user as BillingCardService does) and one profile whose card is
 * sealed in the vault; and the products. Returns what the load generator needs.
 */
export async function seed(client, { users, vaultKeys, products }) {
  const vault = vaultFrom(vaultKeys)
  const now = sqlTime()
  const expires = sqlTime(new Date(Date.now() + 30 * 86400_000))
  const password = passwordHash('bench-password-1')
  const customers = []
  const userRows = []
  const tokenRows = []
  const profileRows = []
  const gatewayCustomers = []
  const paymentMethods = []
  for (let index = 1; index <= users; index++) {
    const token = accessToken(index)
    const profileId = randomUUID()
    const address = {
      address1: `${index} Release Street`,
      address2: '',
      firstName: 'Bench',
      lastName: `Customer${index}`,
      city: 'Portland',
      zip: '97201',
      state: 'OR',
      country: 'US',
    }
    userRows.push({
      id: index,
      uuid: randomUUID(),
      email: `bench${index}@dropslot.test`,
      password,
      name: `Bench Customer${index}`,
      role: 'customer',
      gateway_customer_id: `cus_bench${index}`,
      card_payment_method_id: `pm_bench${index}`,
      card_brand: 'visa',
      card_last4: '4242',
      card_exp_month: 12,
      card_exp_year: 2031,
      created_at: now,
      updated_at: now,
    })
    gatewayCustomers.push({
      id: `cus_bench${index}`,
      email: `bench${index}@dropslot.test`,
      name: `Bench Customer${index}`,
      reference: userRows[index - 1].uuid,
      created_at: now,
    })
    paymentMethods.push({
      id: `pm_bench${index}`,
      customer_id: `cus_bench${index}`,
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2031,
      behaviour: 'ok',
      created_at: now,
    })
    tokenRows.push({
      id: index,
      tokenable_id: index,
      type: 'auth_token',
      name: null,
      hash: token.hash,
      abilities: '["*"]',
      created_at: now,
      updated_at: now,
      last_used_at: null,
      expires_at: expires,
    })
    profileRows.push({
      public_id: profileId,
      user_id: index,
      profile_name: 'Release day',
      email: `bench${index}@dropslot.test`,
      phone: '5035550100',
      shipping: JSON.stringify(address),
      billing: JSON.stringify(address),
      card_vault: vault.seal({
        name: `Bench Customer${index}`,
        number: '4242424242424242',
        code: '123',
        month: '12',
        year: '2031',
        cardType: 'visa',
      }),
      card_name: `Bench Customer${index}`,
      card_brand: 'visa',
      card_last4: '4242',
      card_exp_month: 12,
      card_exp_year: 2031,
      created_at: now,
      updated_at: now,
    })
    customers.push({ token: token.value, profileId, uuid: userRows[userRows.length - 1].uuid })
  }
  await insertMany(client, 'users', userRows)
  await insertMany(client, 'auth_access_tokens', tokenRows)
  await insertMany(client, 'sandbox_customers', gatewayCustomers)
  await insertMany(client, 'sandbox_payment_methods', paymentMethods)
  await insertMany(client, 'profiles', profileRows)

  const releaseAt = sqlTime(new Date(Date.now() + 7 * 86400_000))
  const ids = {}
  for (const [slug, stock] of Object.entries(products)) {
    const result = await client.query(
      `INSERT INTO products (slug, title, image, description, price_cents, size_type, styles, tags,
        sizes, avail, total_stock, stock_taken, release_at, created_at, updated_at)
       VALUES (?, ?, '', 'Benchmark release', 2000, 'OS', 'OS', '', '["OS"]', 1, ?, 0, ?, ?, ?)`,
      [slug, `Bench ${slug}`, stock, releaseAt, now, now]
    )
    ids[slug] = result.insertId
  }
  return { customers, productIds: ids }
}

/** What the database says about one product after a phase: the correctness checks. */
export async function verifyProduct(client, productId) {
  const [product] = await client.query(
    'SELECT total_stock, stock_taken FROM products WHERE id = ?',
    [productId]
  )
  const [orders] = await client.query(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN hold_status = 'queued' THEN 1 ELSE 0 END) AS queued
     FROM orders WHERE product_id = ?`,
    [productId]
  )
  const [dupes] = await client.query(
    `SELECT COUNT(*) AS n FROM (SELECT profile_id FROM orders WHERE product_id = ?
       GROUP BY profile_id HAVING COUNT(*) > 1) d`,
    [productId]
  )
  return {
    totalStock: Number(product.total_stock),
    stockTaken: Number(product.stock_taken),
    orders: Number(orders.n),
    holdsQueued: Number(orders.queued ?? 0),
    duplicates: Number(dupes.n),
  }
}
