/*
| `npm start`: the one command a newcomer runs. It creates .env on first run, builds whatever is
| missing or older than its sources (server, storefront, admin console), migrates the database,
| seeds the demo data outside production, then serves everything on PORT (3333 by default).
*/
import { spawnSync, spawn } from 'node:child_process'
import { existsSync, statSync, symlinkSync, mkdirSync, lstatSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { addMissingKeys, ensureEnvFile, readEnvFile } from './env_file.js'
import { newestMtime } from './newest_mtime.js'

const rootUrl = new URL('../', import.meta.url)
const root = fileURLToPath(rootUrl)
const buildDir = path.join(root, 'build')

function isStale(output, sources) {
  if (!existsSync(output)) return true
  const builtAt = statSync(output).mtimeMs
  return sources.some((source) => newestMtime(path.join(root, source)) > builtAt)
}

/** With `quiet`, the step's own output is shown only if it fails. */
function run(label, command, args, { quiet = false, ...options } = {}) {
  console.log(`\n› ${label}`)
  const result = spawnSync(command, args, {
    stdio: quiet ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    ...options,
  })
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
    console.error(`✖ ${label} failed (exit ${result.status})`)
    process.exit(result.status ?? 1)
  }
}

if (ensureEnvFile(rootUrl)) console.log('› created .env with fresh random keys')
const added = addMissingKeys(rootUrl)
if (added.length) console.log(`› added ${added.join(', ')} to .env`)
const fileEnv = readEnvFile(rootUrl)
const env = {
  ...fileEnv,
  ...process.env,
  SQLITE_PATH:
    process.env.SQLITE_PATH || fileEnv.SQLITE_PATH || path.join(root, 'tmp', 'dropslot.sqlite3'),
}
if (!path.isAbsolute(env.SQLITE_PATH)) env.SQLITE_PATH = path.join(root, env.SQLITE_PATH)
mkdirSync(path.join(root, 'tmp'), { recursive: true })

const pkg = JSON.parse(
  (await import('node:fs')).readFileSync(path.join(root, 'package.json'), 'utf8')
)
const frontends = [
  { script: 'build:storefront', output: 'public/index.html', sources: ['resources/storefront'] },
  { script: 'build:admin', output: 'public/admin/index.html', sources: ['admin'] },
]
for (const frontend of frontends) {
  if (pkg.scripts[frontend.script] && isStale(path.join(root, frontend.output), frontend.sources)) {
    run(`building ${frontend.script.slice(6)}`, 'npm', ['run', '--silent', frontend.script], {
      cwd: root,
    })
  }
}

const serverSources = [
  'app',
  'bin',
  'config',
  'start',
  'database',
  'adonisrc.ts',
  'package.json',
  'cli',
]
if (isStale(path.join(buildDir, 'bin', 'server.js'), serverSources)) {
  // Quiet: the build's closing box tells how to deploy build/ by hand, which npm start does here.
  run('building the server (tsc)', 'node', ['ace', 'build'], { cwd: root, quiet: true })
}

// The build serves the same public/ folder the frontends are built into.
const publicLink = path.join(buildDir, 'public')
if (!existsSync(publicLink) && !isSymlink(publicLink)) {
  mkdirSync(path.join(root, 'public'), { recursive: true })
  symlinkSync(path.join(root, 'public'), publicLink, 'dir')
}

run('migrating the database', 'node', ['ace', 'migration:run', '--force', '--compact-output'], {
  cwd: buildDir,
  env,
})
if (env.NODE_ENV !== 'production') {
  run('seeding demo data', 'node', ['ace', 'db:seed'], { cwd: buildDir, env })
}

console.log('\n› starting the server')
// Once it listens, the server prints where the storefront and the console are, and the demo logins.
const server = spawn('node', ['bin/server.js', '--banner'], {
  cwd: buildDir,
  env,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))

function isSymlink(target) {
  try {
    return lstatSync(target).isSymbolicLink()
  } catch {
    return false
  }
}
