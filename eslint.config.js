import { readdirSync } from 'node:fs'
import { configApp } from '@adonisjs/eslint-config'

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
