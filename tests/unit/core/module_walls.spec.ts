import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Linter } from 'eslint'
import ownTables from '../../../eslint/own_tables.js'

/*
| The walls between modules, checked rather than written down: every table has one owning module
| (database/table_owners.json), `dropslot/own-tables` refuses a write to another module's table,
| and `module-imports.mjs --check` finds no import loop, no foreign write and no import of
| another module's models in app/.
*/
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

async function migrationTables() {
  const directory = join(ROOT, 'database/migrations')
  const tables = new Set<string>()
  for (const file of await readdir(directory)) {
    const text = await readFile(join(directory, file), 'utf8')
    for (const match of text.matchAll(/createTable\(\s*['"]([a-z_]+)['"]/g)) tables.add(match[1])
    const named = text.match(/tableName\s*=\s*['"]([a-z_]+)['"]/)
    if (named && /createTable\(\s*this\.tableName/.test(text)) tables.add(named[1])
  }
  return tables
}

test.group('Module walls', () => {
  test('every table the migrations create has exactly one owning module', async ({ assert }) => {
    const owners = JSON.parse(await readFile(join(ROOT, 'database/table_owners.json'), 'utf8'))
    const listed = Object.entries(owners)
      .filter(([module]) => !module.startsWith('$'))
      .flatMap(([, tables]) => tables as string[])
    const entries = await readdir(join(ROOT, 'app'), { withFileTypes: true })
    const modules = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    assert.deepEqual(
      Object.keys(owners)
        .filter((module) => !module.startsWith('$'))
        .sort(),
      modules.sort()
    )
    assert.equal(new Set(listed).size, listed.length, 'a table listed twice')
    assert.deepEqual([...new Set(listed)].sort(), [...(await migrationTables())].sort())
  })

  test("own-tables refuses writes to another module's table, in every form", ({ assert }) => {
    const linter = new Linter({ configType: 'flat', cwd: ROOT })
    const config = [
      {
        files: ['**/*.ts'],
        plugins: { dropslot: { rules: { 'own-tables': ownTables } } },
        rules: { 'dropslot/own-tables': 'error' as const },
      },
    ]
    const lint = (file: string, code: string) =>
      linter
        .verify(code, config, { filename: join(ROOT, file) })
        .map((message) => `${message.line}:${message.ruleId}`)

    const code = [
      "const TABLE = 'products'",
      "db.from('orders').where('id', 1).update({ status: 'failed' })",
      "db.insertQuery().table('users').insert({})",
      'db.table(TABLE).insert({})',
      "trx.from('profiles').where('id', 1).delete()",
      "session.run('UPDATE orders SET status = ? WHERE id = ?', [])",
      "db.from('orders').where('id', 1).select('id')",
      "db.from('release_tasks').where('order_id', 1).update({ status: 'done' })",
    ].join('\n')
    assert.deepEqual(lint('app/release/services/example.ts', code), [
      '2:dropslot/own-tables',
      '3:dropslot/own-tables',
      '4:dropslot/own-tables',
      '5:dropslot/own-tables',
      '6:dropslot/own-tables',
    ])
    // The owner writes its own rows; files outside app/ are not a module's.
    assert.deepEqual(lint('app/orders/services/example.ts', "db.from('orders').update({})"), [])
    assert.deepEqual(lint('database/seeders/example.ts', "db.from('orders').update({})"), [])
  })

  test('module-imports --check: no import loop, foreign write, model or job import in app/', async ({
    assert,
  }) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bench/tools/module-imports.mjs'), '--check', '--json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }
    )
    const map = JSON.parse(stdout)
    assert.deepEqual(map.loops, [])
    assert.deepEqual(map.foreignWrites, [])
    assert.deepEqual(map.intoInternals, [])
    assert.deepEqual(map.intoJobs, [])
    assert.deepEqual(map.mutual, [])
  }).timeout(30_000)
})
