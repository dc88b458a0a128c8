/*
| dropslot/own-tables: each module writes only its own tables.
|
| In app/<module>/, a query builder that names another module's table and writes to it is refused:
| `db.from('<table>')`, `db.table(...)`, `.into(...)` or `db.insertQuery().table(...)` followed by
| `.insert`/`.update`/`.delete`/`.merge`/..., and plain SQL that starts with `INSERT INTO`,
| `UPDATE` or `DELETE FROM` another module's table. Who owns which table:
| database/table_owners.json. The write belongs behind the owning module's service.
|
| Options: `{ allow: [{ file: 'app/x/y.ts', tables: ['t'], reason: '...' }] }`, each with the
| reason the wall gives way there (none today).
*/
import { readFileSync } from 'node:fs'
import { relative, sep } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const owners = JSON.parse(
  readFileSync(new URL('../database/table_owners.json', import.meta.url), 'utf8')
)
/** Table -> owning module, from database/table_owners.json (also read by module-imports.mjs). */
export const ownerOf = new Map()
for (const [module, tables] of Object.entries(owners)) {
  if (module.startsWith('$')) continue
  for (const table of tables) ownerOf.set(table, module)
}

export const WRITE_METHODS = new Set([
  'insert',
  'multiInsert',
  'update',
  'delete',
  'del',
  'merge',
  'increment',
  'decrement',
  'upsert',
  'truncate',
])
export const TABLE_METHODS = new Set(['from', 'table', 'into'])
export const SQL_WRITE =
  /\b(?:insert\s+(?:ignore\s+)?into|update|delete\s+from|replace\s+into)\s+`?([a-z_]+)`?/gi

/** The string a node stands for: a literal, a template without holes, or a const holding one. */
function stringOf(node, context) {
  if (!node) return null
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) {
    return node.quasis[0].value.cooked
  }
  if (node.type === 'Identifier') {
    let scope = context.sourceCode.getScope(node)
    while (scope) {
      const variable = scope.set.get(node.name)
      if (variable) {
        const definition = variable.defs[0]
        if (
          definition?.type === 'Variable' &&
          definition.parent.kind === 'const' &&
          definition.node.init
        ) {
          return stringOf(definition.node.init, context)
        }
        return null
      }
      scope = scope.upper
    }
  }
  return null
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A module writes only its own tables (database/table_owners.json).' },
    schema: [
      {
        type: 'object',
        properties: {
          allow: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                file: { type: 'string' },
                tables: { type: 'array', items: { type: 'string' } },
                reason: { type: 'string' },
              },
              required: ['file', 'tables', 'reason'],
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      foreignWrite:
        '{{module}} writes `{{table}}`, a table of {{owner}}: ask the services of {{owner}} to ' +
        'write it (database/table_owners.json).',
    },
  },
  create(context) {
    const file = relative(root, context.filename).split(sep).join('/')
    const module = file.match(/^app\/([a-z_]+)\//)?.[1]
    if (!module) return {}
    const allow = (context.options[0]?.allow ?? []).filter((rule) => rule.file === file)

    const report = (node, table) => {
      const owner = ownerOf.get(table)
      if (!owner || owner === module) return
      if (allow.some((rule) => rule.tables.includes(table))) return
      context.report({ node, messageId: 'foreignWrite', data: { module, owner, table } })
    }

    const scanSql = (node, sql) => {
      if (!/^\s*(insert|update|delete|replace|with)\b/i.test(sql)) return
      for (const match of sql.matchAll(SQL_WRITE)) report(node, match[1].toLowerCase())
    }

    return {
      CallExpression(node) {
        const callee = node.callee
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return
        if (!WRITE_METHODS.has(callee.property.name)) return
        // Down the builder chain to the table it names: db.from('t').where(...).update(...)
        let receiver = callee.object
        while (receiver) {
          if (receiver.type === 'CallExpression' && receiver.callee.type === 'MemberExpression') {
            const name = receiver.callee.property.name
            const table = TABLE_METHODS.has(name) ? stringOf(receiver.arguments[0], context) : null
            if (table) {
              report(node, table)
              return
            }
            receiver = receiver.callee.object
          } else if (receiver.type === 'MemberExpression') {
            receiver = receiver.object
          } else if (receiver.type === 'TSNonNullExpression') {
            receiver = receiver.expression
          } else return
        }
      },
      Literal(node) {
        if (typeof node.value === 'string') scanSql(node, node.value)
      },
      TemplateLiteral(node) {
        scanSql(node, node.quasis.map((quasi) => quasi.value.cooked).join(' ? '))
      },
    }
  },
}
