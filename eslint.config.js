import { configApp } from '@adonisjs/eslint-config'

export default configApp({
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
})
