import { existsSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Debian's Chromium, headless; browsers cannot be downloaded on these machines. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

export function baseUrl() {
  return `http://${env.get('HOST')}:${env.get('PORT')}`
}

/** The console must be built (npm run test:browser builds it first). */
export function assertConsoleBuilt() {
  if (!existsSync(app.publicPath('admin/index.html'))) {
    throw new Error('The admin console is not built: run `npm run build:admin` first.')
  }
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${baseUrl()}/admin`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: /sign in/i }).click()
}
