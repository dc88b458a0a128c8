import { readdirSync } from 'node:fs'
import { configApp } from '@adonisjs/eslint-config'

/*
| Module walls: a module reaches another through its services and queries, never its models or
| validators (type-only imports are allowed: a shape is not a dependency on behaviour). `core` is
| the shared kernel every module may use. Modules listed in OPEN_WALLS still reach into others'
| models (the console's REST lists, the checkout's hot path, release day's runner) and are being
| moved onto queries; `node bench/tools/module-imports.mjs` shows where.
*/
const MODULES = readdirSync(new URL('./app', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const OPEN_WALLS = ['admin', 'checkout', 'release']

const walls = MODULES.filter((module) => !OPEN_WALLS.includes(module)).map((module) => ({
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
  ...walls
)
