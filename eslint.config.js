import { readdirSync } from 'node:fs'
import { configApp, RULES_LIST } from '@adonisjs/eslint-config'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'

/*
| Module walls: a module reaches another through its services and queries, never its models or
| validators (type-only imports are allowed: a shape is not a dependency on behaviour). `core` is
| the shared kernel every module may use. `node bench/tools/module-imports.mjs` draws the map.
*/
const MODULES = readdirSync(new URL('./app', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const walls = MODULES.map((module) => ({
  files: [`app/${module}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: MODULES.filter((other) => other !== module && other !== 'core').map((other) => ({
          regex: `^#${other}/(models|validators)/`,
          allowTypeImports: true,
          message: `Reach ${other} through its services or queries, not its models or validators.`,
        })),
      },
    ],
  },
}))

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
  ...frontEnds
)
