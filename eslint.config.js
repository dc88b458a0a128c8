import { readdirSync } from 'node:fs'
import { configApp, RULES_LIST } from '@adonisjs/eslint-config'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
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

/*
| The two React apps: the storefront and the console. The React rules, the rules of hooks and the
| React Compiler's rules (`recommended-latest`: purity, refs, set-state-in-effect, ...), the same
| formatting as the server. They reach the server only through HTTP: an import of the server's
| code (`#module/*`) must be type-only (the API contract, `shared/api/contract.ts`), so nothing of
| the server ends up in a browser bundle.
*/
const FRONT_ENDS = ['resources/storefront/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}']

const frontEnds = [
  { ...react.configs.flat.recommended, files: FRONT_ENDS },
  { ...react.configs.flat['jsx-runtime'], files: FRONT_ENDS },
  { ...reactHooks.configs.flat['recommended-latest'], files: FRONT_ENDS },
  {
    name: 'Front ends',
    files: FRONT_ENDS,
    settings: { react: { version: 'detect' } },
    rules: {
      ...RULES_LIST,
      // The props are TypeScript types, checked by `npm run typecheck`.
      'react/prop-types': 'off',
      // React's naming: a component's file is named after it (ProductCard.tsx), a hook's or a
      // module's in camelCase (useOrders.ts, dataProvider.ts).
      '@unicorn/filename-case': ['error', { cases: { camelCase: true, pascalCase: true } }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^#',
              allowTypeImports: true,
              message: 'The front ends use the server only as types (import type).',
            },
          ],
        },
      ],
    },
  },
]

/*
| Rooms a maintainer can read: no file of the apps over 500 lines, and on the server no function
| or method over 80 (blank lines and comments aside), so a use case is a few named steps.
*/
const sizeRules = [
  {
    files: [
      'app/**/*.ts',
      'start/**/*.ts',
      'config/**/*.ts',
      'database/**/*.ts',
      'cli/**/*.ts',
      'admin/src/**/*.{ts,tsx}',
      'resources/storefront/src/**/*.{ts,tsx}',
    ],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    files: ['app/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
]

/*
| The rate limiter's `clear()` with no store clears the Redis store too, and that is a FLUSHDB:
| every other installation's queues and locks in the same Redis database go with it.
*/
const testRules = {
  files: ['tests/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector:
          "CallExpression[callee.object.name='limiter'][callee.property.name='clear'][arguments.length=0]",
        message: 'limiter.clear() empties the whole Redis database: use clearRateLimits().',
      },
    ],
  },
}

export default configApp(
  {
    ignores: [
      'build/**',
      'public/**',
      'tmp/**',
      'node_modules/**',
      'bench/**',
      'scripts/**',
      'cli/**/*.js',
      'ace.js',
    ],
  },
  ...walls,
  ownTablesRule,
  testRules,
  ...sizeRules,
  ...frontEnds
)
