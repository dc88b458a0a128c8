/*
| node bench/tools/sqlite-checkpoints.mjs [--thread] [--checkouts N] [--db tmp/bench/drop.sqlite3]
|
| What SQLite's checkpoints cost the thread that writes, away from the server's noise: on a copy
| of the drop benchmark's database (run `npm run bench:drop -- --db sqlite` once first), N
| checkouts of the app's shape one after another (BEGIN IMMEDIATE, the slot's UPDATE, the order's
| INSERT, the receipt's INSERT, COMMIT), with 1 ms of other work between them as a server has,
| and prints the µs per checkout of each statement on the writing thread. Without --thread the
| writer checkpoints at SQLite's 1,000 pages; with it, the web process's own checkpoint thread
| (the build's app/core/services/wal_checkpoints.js) runs every 100 ms and the writer checkpoints
| at the threshold that thread sets. Run both a few times, interleaved.
*/
import { randomUUID } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values: flags } = parseArgs({
  options: {
    thread: { type: 'boolean', default: false },
    checkouts: { type: 'string', default: '5000' },
    db: { type: 'string', default: 'tmp/bench/drop.sqlite3' },
  },
})
const Database = createRequire(import.meta.url)('better-sqlite3')
const checkpointsModule = fileURLToPath(
  new URL('../../build/app/core/services/wal_checkpoints.js', import.meta.url)
)
if (!existsSync(checkpointsModule)) {
  throw new Error('no build: run `npm run bench:drop -- --db sqlite` (or `node ace build`) first')
}
const { WalCheckpoints } = await import(checkpointsModule)
const checkpoints = new WalCheckpoints()

const directory = mkdtempSync(join(tmpdir(), 'dropslot-checkpoints-'))
const file = join(directory, 'drop.sqlite3')
copyFileSync(flags.db, file)
const database = new Database(file)
database.pragma('journal_mode = WAL')
database.pragma('foreign_keys = ON')
database.pragma('synchronous = NORMAL')

// A product of the copy, emptied and given stock enough for every checkout.
const productId = database.prepare('SELECT id FROM products ORDER BY id DESC LIMIT 1').get().id
database
  .prepare(
    'DELETE FROM email_messages WHERE order_id IN (SELECT id FROM orders WHERE product_id = ?)'
  )
  .run(productId)
database.prepare('DELETE FROM orders WHERE product_id = ?').run(productId)
database
  .prepare(
    'UPDATE products SET avail = 1, total_stock = 1000000, stock_taken = 0, release_at = NULL WHERE id = ?'
  )
  .run(productId)
database.pragma('wal_checkpoint(TRUNCATE)')
const profiles = database
  .prepare('SELECT public_id, user_id FROM profiles LIMIT ?')
  .all(Number(flags.checkouts))

if (flags.thread) {
  checkpoints.start(file, 100, (problem) => {
    throw new Error(problem)
  })
}
database.pragma(`wal_autocheckpoint = ${checkpoints.writerPages}`)

const statements = {
  begin: database.prepare('BEGIN IMMEDIATE'),
  slot: database.prepare(
    'UPDATE products SET stock_taken = stock_taken + 1 WHERE id = ? AND avail = 1 AND stock_taken < total_stock'
  ),
  order: database.prepare(`INSERT INTO orders (public_id, user_id, product_id, profile_id,
    product_title, base_price_cents, price_cents, style, size, email, name, status, active_slot,
    aco_vault, hold_status, hold_amount_cents, hold_attempts, fee_status, fee_attempts,
    refunded_cents, created_at, updated_at) VALUES (?, ?, ?, ?, 'Bench', 100, 100, 'OS', 'OS',
    'bench@example.com', 'Bench', 'pending', 1, ?, 'queued', 100, 0, 'none', 0, 0,
    '2026-11-29 00:00:00', '2026-11-29 00:00:00')`),
  receipt: database.prepare(`INSERT INTO email_messages (to_address, template, subject,
    text_body, html_body, user_id, order_id, dedupe_key, status, attempts, created_at,
    updated_at) VALUES ('bench@example.com', 'order_received', 'Bench', ?, ?, ?, ?, ?,
    'recorded', 0, '2026-11-29 00:00:00', '2026-11-29 00:00:00')`),
  commit: database.prepare('COMMIT'),
}
// Sizes of the app's own rows: the sealed snapshot and the receipt's two bodies.
const sealed = 'v'.repeat(950)
const textBody = 't'.repeat(340)
const htmlBody = 'h'.repeat(460)
const pause = new Int32Array(new SharedArrayBuffer(4))
const spent = { begin: 0, slot: 0, order: 0, receipt: 0, commit: 0 }
const timed = (name, call) => {
  const started = process.hrtime.bigint()
  const result = call()
  spent[name] += Number(process.hrtime.bigint() - started)
  return result
}

for (const profile of profiles) {
  Atomics.wait(pause, 0, 0, 1)
  timed('begin', () => statements.begin.run())
  timed('slot', () => statements.slot.run(productId))
  const { lastInsertRowid: orderId } = timed('order', () =>
    statements.order.run(randomUUID(), profile.user_id, productId, profile.public_id, sealed)
  )
  timed('receipt', () =>
    statements.receipt.run(textBody, htmlBody, profile.user_id, orderId, `bench:${orderId}`)
  )
  timed('commit', () => statements.commit.run())
}
await checkpoints.stop()
database.close()
rmSync(directory, { recursive: true, force: true })

const perCheckout = Object.fromEntries(
  Object.entries(spent).map(([name, ns]) => [
    name,
    Number((ns / profiles.length / 1000).toFixed(1)),
  ])
)
const total = Object.values(perCheckout).reduce((sum, value) => sum + value, 0)
console.log(
  JSON.stringify({
    thread: flags.thread,
    checkouts: profiles.length,
    usPerCheckout: perCheckout,
    usOnWritingThread: Number(total.toFixed(1)),
  })
)
