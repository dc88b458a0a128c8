import { existsSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { chromium, type Browser, type Page } from 'playwright-core'
import testUtils from '@adonisjs/core/services/test_utils'
import type { Group } from '@japa/runner/core'
import { Secret, TOTP } from 'otpauth'
import { clock } from '#core/services/clock'

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

/** The e-mail and password step of the console's sign-in. */
export async function enterPassword(page: Page, email: string, password: string) {
  await page.goto(`${baseUrl()}/admin`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: /sign in/i }).click()
}

/**
 * The authenticator's code for a base32 secret, as a phone would show it, at the product's clock
 * (the server in this process checks codes against it, and a test may have moved it).
 */
export function authenticatorCode(secret: string, atMs = clock.nowMs()) {
  return new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')) }).generate({
    timestamp: atMs,
  })
}

/**
 * Signs in to the console like a person: e-mail and password, then the second factor a staff
 * account is asked for. With the code step, the code of `totpSecret` (the account's
 * authenticator); with the enrolment step (an account without one), the key shown on the page is
 * read and its code typed in, then the recovery codes are acknowledged. A refusal at the password
 * step (wrong password, not an admin) is left on the page for the test to read.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  options: { totpSecret?: string } = {}
) {
  await enterPassword(page, email, password)
  const codeStep = page.getByRole('heading', { name: 'Enter your authentication code' })
  const enrolStep = page.getByRole('heading', { name: 'Add an authenticator' })
  const refusal = page.getByRole('alert')
  await codeStep.or(enrolStep).or(refusal).first().waitFor()
  if (await codeStep.isVisible()) {
    if (!options.totpSecret)
      throw new Error(`signIn: ${email} has an authenticator: pass its secret`)
    await enterCode(page, options.totpSecret)
  } else if (await enrolStep.isVisible()) {
    const secret = await page.getByLabel('Cannot scan it? Type this key in instead').innerText()
    await enterCode(page, secret)
    await page.getByRole('button', { name: 'I have saved these codes' }).click()
  }
}

async function enterCode(page: Page, secret: string) {
  await page.getByLabel('Authentication code').fill(authenticatorCode(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
}

/**
 * The console's groups: one Chromium for the group, and for each test a fresh desktop page and a
 * database transaction rolled back after it. Returns the current test's page.
 */
export function useConsolePage(group: Group): () => Page {
  let browser: Browser
  let page: Page
  group.setup(async () => {
    assertConsoleBuilt()
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    const cleanup = await testUtils.db().withGlobalTransaction()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    // The machines are shared and slow under load: waits are generous, never timed assertions.
    page.setDefaultTimeout(60_000)
    return async () => {
      await page.close()
      await cleanup()
    }
  })
  return () => page
}
