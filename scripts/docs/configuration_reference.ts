import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

export type Variable = {
  name: string
  /** `string`, `number`, `boolean`, one of an enum's values, or `checked` (a custom rule). */
  kind: string
  required: boolean
  meaning: string
  defaults: string[]
}

const KINDS = ['string', 'number', 'boolean', 'enum'] as const

/** What `Env.schema.x.optional(...)` (or a custom rule) says of the value. */
function describe(initializer: ts.Expression, source: ts.SourceFile) {
  const text = initializer.getText(source)
  if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) {
    // A custom rule: required unless it accepts a missing value.
    return { kind: 'checked', required: !/value === undefined|!value\)? return/.test(text) }
  }
  const kind = KINDS.find((each) => text.startsWith(`Env.schema.${each}`)) ?? 'string'
  const required = !text.includes('.optional')
  if (kind !== 'enum') return { kind, required }
  const values = [...text.matchAll(/'([^']+)'/g)].map((match) => `\`${match[1]}\``)
  return { kind: values.join(', '), required }
}

/** The JSDoc written right before a node, without its stars. */
function jsDocOf(node: ts.Node, source: ts.SourceFile): string | null {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? []
  const docs = ranges
    .map((range) => source.text.slice(range.pos, range.end))
    .filter((comment) => comment.startsWith('/**'))
  if (docs.length === 0) return null
  return docs
    .at(-1)!
    .replace(/^\/\*\*\s?/, '')
    .replace(/\s*\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .trim()
}

/** True when a blank line comes between the previous property and this one. */
function startsBlock(node: ts.Node, source: ts.SourceFile) {
  const between = source.text.slice(node.getFullStart(), node.getStart(source))
  return /\n[ \t]*\n/.test(between)
}

/** The variables of start/env.ts, each with the meaning its JSDoc (or its block's) gives it. */
export function envVariables(envFile: string): Omit<Variable, 'defaults'>[] {
  const source = ts.createSourceFile(
    envFile,
    readFileSync(envFile, 'utf8'),
    ts.ScriptTarget.Latest,
    true
  )
  let schema: ts.ObjectLiteralExpression | null = null
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.getText(source) === 'Env.create' &&
      node.arguments[1] &&
      ts.isObjectLiteralExpression(node.arguments[1])
    ) {
      schema = node.arguments[1]
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  if (!schema) throw new Error(`${envFile}: no Env.create(..., { ... }) found`)
  const variables: Omit<Variable, 'defaults'>[] = []
  let blockMeaning = ''
  for (const property of (schema as ts.ObjectLiteralExpression).properties) {
    if (!ts.isPropertyAssignment(property)) continue
    if (startsBlock(property, source)) blockMeaning = ''
    const name = property.name.getText(source)
    const own = jsDocOf(property, source)
    if (own) blockMeaning = own
    variables.push({
      name,
      ...describe(property.initializer, source),
      // A variable without a JSDoc of its own shares the one above it only when that one names
      // it, so a variable added below another never borrows a meaning that is not its own.
      meaning: own || blockMeaning.includes(name) ? blockMeaning : '',
    })
  }
  return variables
}

function typescriptFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry)
    if (statSync(path).isDirectory()) return typescriptFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/** `env.get('NAME', default)` in the code: each variable's defaults as the code writes them. */
export function envDefaults(folders: string[]): Map<string, Set<string>> {
  const defaults = new Map<string, Set<string>>()
  for (const file of folders.flatMap(typescriptFiles)) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true
    )
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        /(^|\.)env\.get$/.test(node.expression.getText(source)) &&
        node.arguments.length === 2 &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const name = node.arguments[0].text
        const argument = node.arguments[1]
        // A literal's value as it is; anything else as the code computes it.
        const value =
          ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)
            ? argument.text || '(empty)'
            : argument.getText(source)
        if (!defaults.has(name)) defaults.set(name, new Set())
        defaults.get(name)!.add(value)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return defaults
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** A value as inline code, even one that holds a backtick. */
const code = (value: string) => (value.includes('`') ? `\`\` ${value} \`\`` : `\`${value}\``)

/** docs/configuration.md: every variable of start/env.ts, its kind, default and meaning. */
export function configurationReference(root: string): string {
  const defaults = envDefaults(
    ['config', 'app', 'start', 'cli'].map((folder) => join(root, folder))
  )
  const variables = envVariables(join(root, 'start', 'env.ts'))
  // Variables that share one meaning (a block under one comment) share one row.
  const rows: Variable[][] = []
  for (const variable of variables) {
    const row = { ...variable, defaults: [...(defaults.get(variable.name) ?? [])] }
    const last = rows.at(-1)
    if (last && variable.meaning && last[0].meaning === variable.meaning) last.push(row)
    else rows.push([row])
  }
  const lines = [
    '# Configuration',
    '',
    "<!-- Generated from start/env.ts (each variable, its kind and its JSDoc) and the code's",
    '`env.get(name, default)` calls by `npm run docs:generate`; a unit test fails when the code',
    'and this file differ. Edit start/env.ts, not this file. -->',
    '',
    'Everything is an environment variable (`.env`, which `npm start` creates from `.env.example`',
    'on first run, generating the secrets it needs); each is validated at start-up in',
    '`start/env.ts`, so a bad deployment fails at once with a clear message.',
    '',
    '| variable | kind | default in the code | meaning |',
    '|---|---|---|---|',
  ]
  for (const row of rows) {
    const names = row.map((variable) => `\`${variable.name}\``).join(', ')
    const kinds = [...new Set(row.map((variable) => variable.kind))].join(' / ')
    const shownDefaults = row.map((variable) =>
      variable.required
        ? 'required'
        : variable.defaults.length
          ? variable.defaults.map(code).join(' or ')
          : 'unset'
    )
    const defaultCell =
      new Set(shownDefaults).size === 1 ? shownDefaults[0] : shownDefaults.join(', ')
    lines.push(`| ${names} | ${cell(kinds)} | ${cell(defaultCell)} | ${cell(row[0].meaning)} |`)
  }
  return `${lines.join('\n')}\n`
}
