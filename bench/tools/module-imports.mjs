#!/usr/bin/env node
/*
| node bench/tools/module-imports.mjs [--json] [--check]
|
| The walls of the modules of app/, as the code has them:
|  - the matrix of module pairs (how many files of the row module import the column module) and
|    the pairs that import each other;
|  - the file-level import loops in app/ (static imports, re-exports and `await import()`;
|    type-only imports count too: a loop of types is a loop of design);
|  - imports of another module's models/ or validators/ (type-only included);
|  - imports of a job outside jobs/ (jobs call services; services dispatch a job by its name);
|  - writes to another module's tables: `db.from('<table>')`, `db.table(...)`, `.into(...)` or
|    `db.insertQuery().table(...)` followed by `.insert`/`.update`/`.delete`/`.merge`/...,
|    `<Model>.query()` writes and `<Model>.create(...)` of another module's model, and plain SQL
|    (`INSERT INTO`/`UPDATE`/`DELETE FROM` in a string). Who owns which table is
|    database/table_owners.json; the documented exceptions are listed below with their reason.
|
| `--check` exits 1 on any loop, foreign write or import of another module's models/validators.
*/
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
// The owners and what counts as a write: the same as the lint rule's (dropslot/own-tables).
import { ownerOf, SQL_WRITE, TABLE_METHODS, WRITE_METHODS } from '../../eslint/own_tables.js'

const root = resolve(new URL('../..', import.meta.url).pathname)
const appDir = join(root, 'app')
const modules = readdirSync(appDir).filter((name) => statSync(join(appDir, name)).isDirectory())

/**
 * Writes to another module's rows that are allowed, each with its reason (the same list as the
 * `dropslot/own-tables` rule's `allow` in eslint.config.js). None today: the drop's hot path
 * only reads another module's rows (`checkout_reads.ts`: product and profile in one statement);
 * its writes are the owners' own statements run on the checkout's driver session (catalog's
 * `slot_stock.ts`, orders' `OrderLifecycle.open`).
 */
const allowedForeignWrites = []

function* files(directory) {
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) yield path
  }
}

const aliases = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports ?? {}).map(
    ([alias, target]) => [alias.replace('/*', '/'), target.replace('*.js', '')]
  )
)

/** The project file a specifier names, or null (a package). */
function resolveSpecifier(specifier, fromFile) {
  let base = null
  if (specifier.startsWith('.')) base = resolve(dirname(fromFile), specifier)
  else {
    const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix))
    if (alias) base = resolve(root, aliases[alias], specifier.slice(alias.length))
  }
  if (!base) return null
  const stem = base.replace(/\.(js|ts|tsx|jsx)$/, '')
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(stem, 'index.ts')]) {
    if (existsSync(candidate)) return candidate
  }
  return null
}

const moduleOf = (file) => {
  const path = relative(appDir, file)
  return path.startsWith('..') ? null : path.split('/')[0]
}

const MODEL_WRITES = new Set([
  'create',
  'createMany',
  'createQuietly',
  'createManyQuietly',
  'updateOrCreate',
  'updateOrCreateMany',
  'firstOrCreate',
  'fetchOrCreateMany',
  'truncate',
])

/** Table name of a Lucid model file (`static table = '...'`, else Lucid's plural snake case). */
const modelTables = new Map()
function modelTable(file) {
  if (modelTables.has(file)) return modelTables.get(file)
  const text = readFileSync(file, 'utf8')
  const explicit = text.match(/static\s+table\s*=\s*['"]([a-z_]+)['"]/)
  let table = explicit?.[1]
  if (!table) {
    const name = text.match(/export\s+default\s+class\s+(\w+)/)?.[1] ?? ''
    const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
    table = snake.endsWith('y') ? `${snake.slice(0, -1)}ies` : `${snake}s`
  }
  modelTables.set(file, table)
  return table
}

const graph = new Map() // file -> Map(target -> kind)
const matrix = Object.fromEntries(
  modules.map((from) => [from, Object.fromEntries(modules.map((to) => [to, 0]))])
)
const intoInternals = []
const intoJobs = []
const foreignWrites = []
const allowedWrites = []

function recordWrite(list, file, table, how, node, source) {
  const owner = ownerOf.get(table)
  const from = moduleOf(file)
  if (!owner || owner === from) return
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
  const path = relative(root, file)
  const entry = { file: path, line: line + 1, table, owner, how }
  const allowed = allowedForeignWrites.some(
    (rule) => rule.file === path && rule.tables.includes(table)
  )
  ;(allowed ? allowedWrites : list).push(entry)
}

const stringValue = (node) =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null

for (const file of (function* () {
  for (const module of modules) yield* files(join(appDir, module))
})()) {
  const from = moduleOf(file)
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const edges = new Map()
  graph.set(file, edges)
  const importedModels = new Map() // local name -> { file, module }
  // Strings held by a const (`const TABLE = 'orders'`), so `db.table(TABLE)` names its table.
  const constants = new Map()
  const collect = (node) => {
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Const) {
      for (const declaration of node.declarations) {
        const value = stringValue(declaration.initializer)
        if (ts.isIdentifier(declaration.name) && value !== null) {
          constants.set(declaration.name.text, value)
        }
      }
    }
    ts.forEachChild(node, collect)
  }
  collect(source)
  const tableName = (node) =>
    stringValue(node) ?? (node && ts.isIdentifier(node) ? (constants.get(node.text) ?? null) : null)
  const seenModules = new Set()

  const addImport = (specifier, kind, node) => {
    const target = resolveSpecifier(specifier, file)
    if (target) {
      const previous = edges.get(target)
      if (!previous || previous === 'type') edges.set(target, kind)
    }
    const match = specifier.match(/^#([a-z_]+)\/(.+)$/)
    if (!match) return target
    // Jobs call services; nothing else in app/ imports a job (it dispatches by name).
    if (
      match[1] !== 'core' &&
      /^jobs\//.test(match[2]) &&
      !/^app\/[a-z_]+\/jobs\//.test(relative(root, file))
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      intoJobs.push({ file: relative(root, file), line: line + 1, imports: specifier })
    }
    const [, to, path] = match
    if (!modules.includes(to) || to === from) return target
    if (!seenModules.has(to)) matrix[from][to] += 1
    seenModules.add(to)
    // core is the shared kernel every module builds on: its models are everyone's.
    if (to !== 'core' && /^(models|validators)\//.test(path)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      intoInternals.push({
        file: relative(root, file),
        line: line + 1,
        imports: specifier,
        typeOnly: kind === 'type',
      })
    }
    return target
  }

  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const specifier = node.moduleSpecifier && stringValue(node.moduleSpecifier)
      if (specifier) {
        const clause = ts.isImportDeclaration(node) ? node.importClause : node
        const typeOnly =
          Boolean(clause?.isTypeOnly) ||
          (ts.isImportDeclaration(node) &&
            clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly))
        const target = addImport(specifier, typeOnly ? 'type' : 'static', node)
        if (target && /\/models\//.test(target) && ts.isImportDeclaration(node) && !typeOnly) {
          if (clause?.name)
            importedModels.set(clause.name.text, { file: target, module: moduleOf(target) })
        }
      }
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      stringValue(node.arguments[0])
    ) {
      addImport(stringValue(node.arguments[0]), 'dynamic', node)
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text
      if (WRITE_METHODS.has(method)) {
        // Walk down the builder chain to the table it names.
        let receiver = node.expression.expression
        while (receiver) {
          if (ts.isCallExpression(receiver) && ts.isPropertyAccessExpression(receiver.expression)) {
            const name = receiver.expression.name.text
            const table = tableName(receiver.arguments[0])
            if (TABLE_METHODS.has(name) && table) {
              recordWrite(foreignWrites, file, table, `${name}('${table}').${method}`, node, source)
              break
            }
            if (name === 'query' && ts.isIdentifier(receiver.expression.expression)) {
              const model = importedModels.get(receiver.expression.expression.text)
              if (model) {
                const table = modelTable(model.file)
                const how = `${receiver.expression.expression.text}.query().${method}`
                recordWrite(foreignWrites, file, table, how, node, source)
              }
              break
            }
            receiver = receiver.expression.expression
          } else if (ts.isPropertyAccessExpression(receiver) || ts.isNonNullExpression(receiver)) {
            receiver = receiver.expression
          } else break
        }
      }
      if (MODEL_WRITES.has(method) && ts.isIdentifier(node.expression.expression)) {
        const model = importedModels.get(node.expression.expression.text)
        if (model) {
          const how = `${node.expression.expression.text}.${method}`
          recordWrite(foreignWrites, file, modelTable(model.file), how, node, source)
        }
      }
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      scanSql(node.text, node)
    } else if (ts.isTemplateExpression(node)) {
      scanSql(
        [node.head, ...node.templateSpans.map((span) => span.literal)]
          .map((part) => part.text)
          .join(' ? '),
        node
      )
    }
    ts.forEachChild(node, visit)
  }

  const scanSql = (sql, node) => {
    if (!/^\s*(insert|update|delete|replace|with)\b/i.test(sql)) return
    for (const match of sql.matchAll(SQL_WRITE)) {
      recordWrite(foreignWrites, file, match[1].toLowerCase(), `SQL ${match[0]}`, node, source)
    }
  }

  visit(source)
}

/** Strongly connected components of the file graph (Tarjan); each with more than one file is a loop. */
function loops() {
  let index = 0
  const stack = []
  const state = new Map()
  const components = []
  const connect = (file) => {
    state.set(file, { index, low: index, onStack: true })
    index += 1
    stack.push(file)
    for (const target of graph.get(file)?.keys() ?? []) {
      if (!graph.has(target)) continue
      if (!state.has(target)) {
        connect(target)
        state.get(file).low = Math.min(state.get(file).low, state.get(target).low)
      } else if (state.get(target).onStack) {
        state.get(file).low = Math.min(state.get(file).low, state.get(target).index)
      }
    }
    if (state.get(file).low === state.get(file).index) {
      const component = []
      let member
      do {
        member = stack.pop()
        state.get(member).onStack = false
        component.push(member)
      } while (member !== file)
      const selfLoop = graph.get(file)?.has(file)
      if (component.length > 1 || selfLoop) components.push(component)
    }
  }
  for (const file of graph.keys()) if (!state.has(file)) connect(file)
  return components.map((component) => {
    // One concrete loop through the component, shortest from its first file (breadth first).
    const members = new Set(component)
    const start = [...component].sort()[0]
    const previous = new Map([[start, null]])
    const queue = [start]
    let closing = null
    while (queue.length && !closing) {
      const file = queue.shift()
      for (const [target] of graph.get(file)) {
        if (!members.has(target)) continue
        if (target === start) {
          closing = file
          break
        }
        if (!previous.has(target)) {
          previous.set(target, file)
          queue.push(target)
        }
      }
    }
    const path = []
    for (let file = closing; file; file = previous.get(file)) path.unshift(file)
    const steps = [...path, start].map((file, i, all) => {
      const kind = i === 0 ? null : graph.get(all[i - 1]).get(file)
      const name = relative(root, file)
      return kind && kind !== 'static' ? `(${kind}) ${name}` : name
    })
    return { files: component.map((file) => relative(root, file)).sort(), loop: steps }
  })
}

const fileLoops = loops()
const mutual = []
for (const [index, a] of modules.entries()) {
  for (const b of modules.slice(index + 1)) {
    if (matrix[a][b] && matrix[b][a]) mutual.push(`${a} <-> ${b}`)
  }
}

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify({
      modules,
      matrix,
      mutual,
      loops: fileLoops,
      intoInternals,
      intoJobs,
      foreignWrites,
      allowedWrites,
    })
  )
} else {
  const width = Math.max(...modules.map((name) => name.length)) + 1
  const short = (name) => name.slice(0, 5).padStart(6)
  console.log(''.padEnd(width) + modules.map(short).join(''))
  for (const from of modules) {
    const cells = modules.map((to) =>
      from === to ? '     .' : String(matrix[from][to] || '').padStart(6)
    )
    console.log(from.padEnd(width) + cells.join(''))
  }
  console.log(
    `\nModule pairs importing each other (${mutual.length}): ${mutual.join(', ') || 'none'}`
  )
  console.log(`File import loops in app/ (${fileLoops.length}): ${fileLoops.length ? '' : 'none'}`)
  for (const item of fileLoops) {
    console.log(`  ${item.files.length} files: ${item.loop.join(' -> ')}`)
  }
  const types = intoInternals.filter((item) => item.typeOnly).length
  console.log(
    `Imports of another module's models/ or validators/ (${intoInternals.length}: ` +
      `${intoInternals.length - types} of code, ${types} of types only): ` +
      (intoInternals.length ? '' : 'none')
  )
  for (const item of intoInternals) {
    console.log(`  ${item.file}:${item.line} -> ${item.imports}${item.typeOnly ? ' (type)' : ''}`)
  }
  console.log(
    `Imports of a job outside jobs/ (${intoJobs.length}): ${intoJobs.length ? '' : 'none'}`
  )
  for (const item of intoJobs) console.log(`  ${item.file}:${item.line} -> ${item.imports}`)
  console.log(
    `Writes to another module's tables (${foreignWrites.length}): ${foreignWrites.length ? '' : 'none'}`
  )
  for (const item of foreignWrites) {
    console.log(`  ${item.file}:${item.line} ${item.how} (${item.table}, a table of ${item.owner})`)
  }
  console.log(`Allowed by an exception with its reason (${allowedWrites.length}):`)
  for (const item of allowedWrites) {
    console.log(`  ${item.file}:${item.line} ${item.how} (${item.table}, a table of ${item.owner})`)
  }
}

if (process.argv.includes('--check')) {
  const problems =
    fileLoops.length + foreignWrites.length + intoInternals.length + mutual.length + intoJobs.length
  if (problems) {
    console.error(
      `module-imports --check: ${fileLoops.length} import loops, ${foreignWrites.length} writes ` +
        `to another module's tables, ${intoInternals.length} imports of another module's ` +
        `models/validators, ${intoJobs.length} imports of a job outside jobs/, ` +
        `${mutual.length} module pairs importing each other`
    )
    process.exit(1)
  }
}
