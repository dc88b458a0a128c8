#!/usr/bin/env node
/*
| npm run bench:lighthouse [-- --runs 3 --port 3780]
|
| Lighthouse (mobile: a mid-range phone on a slow 4G link, simulated) against the production build
| with the demo data, on /, /shop and a product page (signed in, as the storefront requires), in
| Debian's Chromium. Prints each page's performance score, LCP, CLS and TBT (the median of the
| runs) and ends with one JSON line. Not a timed test: the figures go to docs/performance.md.
*/
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import lighthouse from 'lighthouse'
import { launch } from 'chrome-launcher'
import { chromium } from 'playwright-core'
import { buildWhenStale } from '../scripts/build_when_stale.js'
import { stop, waitForHealth } from './lib/processes.js'
import { newestMtime } from '../scripts/newest_mtime.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '3780' },
  },
})
const runs = Number(flags.runs)
const port = Number(flags.port)
const base = `http://127.0.0.1:${port}`
const log = (...args) => console.error(...args)

buildWhenStale(root, log)
const index = join(root, 'public', 'index.html')
if (
  !existsSync(index) ||
  newestMtime(join(root, 'resources', 'storefront')) > statSync(index).mtimeMs
) {
  log('building the storefront and the console (npm run build:web)...')
  execFileSync('npm', ['run', 'build:web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
}

const database = join(root, 'tmp', 'bench', 'lighthouse.sqlite3')
mkdirSync(dirname(database), { recursive: true })
for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true })
const env = {
  PATH: process.env.PATH,
  HOST: '127.0.0.1',
  PORT: String(port),
  LOG_LEVEL: 'warn',
  APP_KEY: randomBytes(32).toString('base64url'),
  PROFILE_TRANSPORT_KEY: randomBytes(32).toString('hex'),
  VAULT_KEYS: `bench:${randomBytes(32).toString('hex')}`,
  INSTALLATION_ID: `bench${randomBytes(8).toString('hex')}`,
  SANDBOX_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  PAYMENT_GATEWAY: 'sandbox',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  CHECKOUT_TASK_SECRET: randomBytes(32).toString('base64url'),
  CHECKOUT_RESULTS_SECRET: randomBytes(32).toString('base64url'),
  DRAW_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
  DB_CONNECTION: 'sqlite',
  SQLITE_PATH: database,
  // The demo's e-mails stay in the outbox while pages are measured: the email queue is left to
  // another process, and the mail server is a local port nothing listens on (never reached).
  EMAIL_WORKER_ENABLED: 'false',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '9',
}
const buildDir = join(root, 'build')
const ace = (args, nodeEnv) =>
  execFileSync(process.execPath, ['ace', ...args], {
    cwd: buildDir,
    env: { ...env, NODE_ENV: nodeEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
log('migrating and seeding the demo data')
ace(['migration:run', '--force'], 'production')
// The demo seeder refuses production; the data it writes is what a newcomer sees.
ace(['db:seed', '--files', 'database/seeders/demo_seeder.js'], 'development')

const app = spawn(process.execPath, ['bin/server.js'], {
  cwd: buildDir,
  env: { ...env, NODE_ENV: 'production' },
  stdio: 'inherit',
})
const chrome = await launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--no-sandbox',
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})

let lastSettings = null
/** What was emulated: the device and the network, as Lighthouse reports it used them. */
const settingsOf = (settings) => ({
  formFactor: settings?.formFactor,
  throttlingMethod: settings?.throttlingMethod,
  rttMs: settings?.throttling?.rttMs,
  throughputKbps: settings?.throttling?.throughputKbps,
  cpuSlowdown: settings?.throttling?.cpuSlowdownMultiplier,
})

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

let result
try {
  await waitForHealth(port, app)
  const products = await (await fetch(`${base}/api/products`)).json()
  const product = products.find((item) => item.mode !== 'draw' && item.productImage) ?? products[0]

  // A signed-in customer (the product page is for customers): log in through the API and keep
  // the session in this Chrome profile's storage, which Lighthouse is told not to clear.
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json' },
    body: JSON.stringify({ email: 'customer@dropslot.test', password: 'dropslot-demo' }),
  })
  const session = await login.json()
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
  const page = await browser.contexts()[0].newPage()
  await page.goto(`${base}/how-it-works`)
  await page.evaluate((stored) => localStorage.setItem('user', JSON.stringify(stored)), {
    token: session.token,
    email: session.email,
    name: session.name,
    uuid: session.uuid,
  })
  await page.close()
  await browser.close()

  const pages = { home: '/', shop: '/shop', product: `/product/${product.productId}` }
  const figures = {}
  for (const [name, path] of Object.entries(pages)) {
    const samples = []
    for (let run = 0; run < runs; run++) {
      const { lhr } = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        onlyCategories: ['performance'],
        disableStorageReset: true,
        logLevel: 'error',
      })
      lastSettings = lhr.configSettings
      samples.push({
        score: Math.round(lhr.categories.performance.score * 100),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
        cls: Math.round(lhr.audits['cumulative-layout-shift'].numericValue * 1000) / 1000,
        tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
        finalUrl: lhr.finalDisplayedUrl,
      })
    }
    figures[name] = {
      path,
      score: median(samples.map((sample) => sample.score)),
      lcpMs: median(samples.map((sample) => sample.lcpMs)),
      cls: median(samples.map((sample) => sample.cls)),
      tbtMs: median(samples.map((sample) => sample.tbtMs)),
      scores: samples.map((sample) => sample.score),
    }
    if (!samples.every((sample) => new URL(sample.finalUrl).pathname === path)) {
      throw new Error(`${path} ended on ${samples[0].finalUrl}: not the page that was asked for`)
    }
    log(name, JSON.stringify(figures[name]))
  }
  result = { runs, ...settingsOf(lastSettings), pages: figures }
} finally {
  await chrome.kill()
  await stop(app)
}
console.log(JSON.stringify(result))
