/*
| The production build the benchmarks measure and the CLI tests run: `node ace build` into
| build/ when it is missing or older than the code it is built from.
*/
import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { newestMtime } from './newest_mtime.js'

export function buildWhenStale(root, log) {
  const server = join(root, 'build', 'bin', 'server.js')
  const sources = [
    'app',
    'config',
    'start',
    'database',
    'bin',
    'cli',
    'commands',
    'shared',
    'adonisrc.ts',
    'package.json',
  ]
  if (
    existsSync(server) &&
    sources.every((source) => newestMtime(join(root, source)) <= statSync(server).mtimeMs)
  ) {
    return
  }
  log('building the app (node ace build)...')
  execFileSync(process.execPath, ['ace', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
