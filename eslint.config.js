import { readdirSync } from 'node:fs'
import { configApp } from '@adonisjs/eslint-config'
import ownTables from './eslint/own_tables.js'

/*
| Module walls: a module reaches another through its services and queries, never its models or
| validators, not even for a type (the owning module exports a record type from its queries/
| services: `ProductRecord`, `OrderRecord`, ...). `core` is the shared kernel every module may use.
| Each module writes only its own tables (`dropslot/own-tables`, database/table_owners.json).
| Services never import jobs (they dispatch by name). `node bench/tools/module-imports.mjs --check`
| draws the map and fails on import loops too.
*/
const MODULES = readdirSync(new URL('./app', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const intoInternals = (module) =>
  MODULES.filter((other) => other !== module && other !== 'core').map((other) => ({
    regex: `^#${other}/(models|validators)/`,
    message:
      `Reach ${other} through its services or queries (and their record types), ` +
      'not its models or validators.',
  }))

// Jobs call services; services (and controllers, ...) never import a job: they dispatch it by
// name, `jobs.dispatch('<module>.<action>', payload)`. `#core/jobs` is the machinery itself.
const intoJobs = {
  regex: '^#(?!core/)[a-z_]+/jobs/',
  message: "Dispatch the job by its name (jobs.dispatch('<module>.<action>', payload)).",
}

const walls = MODULES.flatMap((module) => [
  {
    files: [`app/${module}/**/*.ts`],
    ignores: [`app/${module}/jobs/**`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [...intoInternals(module), intoJobs] },
      ],
    },
  },
  {
    files: [`app/${module}/jobs/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: intoInternals(module) }],
    },
  },
])

const ownTablesRule = {
  files: ['app/**/*.ts'],
  plugins: { dropslot: { rules: { 'own-tables': ownTables } } },
  rules: { 'dropslot/own-tables': 'error' },
}

export default configApp(
  {
    ignores: [
      'build/**',
      'public/**',
      'tmp/**',
      'node_modules/**',
      'resources/storefront/**',
      'admin/**',
      'bench/**',
      'scripts/**',
      'cli/**/*.js',
      'ace.js',
    ],
  },
  ...walls,
  ownTablesRule
)
