import { existsSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { Group } from '@japa/runner/core'
import User from '#accounts/models/user'
import { UserFactory } from '#database/factories/user_factory'
import { profileService } from '#profiles/services/profile_service'
import { envelope, profilePayload } from '#tests/helpers'
import { newProfileValidator } from '#profiles/validators/profile_validator'
import { contentSecurityDirectives } from '#config/shield'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const DESKTOP = { width: 1440, height: 900 }
export const PHONE = { width: 375, height: 812 }

export const baseUrl = () => `http://${env.get('HOST')}:${env.get('PORT')}`

/**
 * One Chromium per test group (launched in group setup, closed in teardown); every test gets its
 * own context, so storage and cookies never leak between tests.
 */
export function useBrowser(group: Group) {
  const state: { browser?: Browser; contexts: BrowserContext[] } = { contexts: [] }
  group.setup(async () => {
    if (!existsSync(app.publicPath('index.html'))) {
      throw new Error('The storefront is not built: run `npm run build:storefront` first.')
    }
    state.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    })
    return async () => {
      await state.browser?.close()
    }
  })
  group.each.teardown(async () => {
    await Promise.all(state.contexts.splice(0).map((context) => context.close()))
  })
  return {
    async newPage(viewport = DESKTOP): Promise<Page> {
      const context = await state.browser!.newContext({ viewport, baseURL: baseUrl() })
      state.contexts.push(context)
      const page = await context.newPage()
      page.setDefaultTimeout(15000)
      return page
    },
  }
}

/** Puts a customer's session in the page's storage, as the login screen does. */
export async function signInAs(page: Page, user: User) {
  const token = await User.accessTokens.create(user)
  const stored = {
    token: token.value!.release(),
    email: user.email,
    name: user.name,
    uuid: user.uuid,
  }
  await page.goto('/how-it-works')
  await page.evaluate(`localStorage.setItem('user', ${JSON.stringify(JSON.stringify(stored))})`)
  return stored.token
}

/** A customer who finished the sign-up steps: billing address, card on file and one profile. */
export async function readyCustomer(
  profileName = 'Home',
  profileFields: Record<string, unknown> = {}
) {
  const user = await UserFactory.apply('withBilling')
    .merge({ cardLast4: '4242', cardBrand: 'visa', cardExpMonth: 12, cardExpYear: 2099 })
    .create()
  const data = await newProfileValidator.validate(
    profilePayload({ profileName, email: user.email, phone: '5551234567', ...profileFields })
  )
  const profile = await profileService.create(user, data)
  return { user, profile }
}

/**
 * Saves a card on file the way the storefront does (genToken with the sealed card, then
 * billing/set with the token), so the payment gateway really knows the customer's card.
 */
export async function saveCardThroughApi(token: string, number = '4242424242424242') {
  const headers = { 'content-type': 'application/json', 'authorization': `Bearer ${token}` }
  const card = {
    name: 'Test Customer',
    number,
    exp_month: '12',
    exp_year: '2030',
    cvc: '123',
    address_zip: '12345',
  }
  const generated = await fetch(`${baseUrl()}/api/user/billing/genToken`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ encrypted: envelope(card) }),
  })
  if (!generated.ok) throw new Error(`genToken answered ${generated.status}`)
  const { id } = (await generated.json()) as { id: string }
  const billingAddress = {
    address1: '1 Main St',
    city: 'Springfield',
    zip: '12345',
    state: 'IL',
    country: 'US',
  }
  const saved = await fetch(`${baseUrl()}/api/user/billing/set`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ billingAddress, token: id }),
  })
  if (!saved.ok) throw new Error(`billing/set answered ${saved.status}`)
}

export const uniqueEmail = (label: string) =>
  `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`

/** Page expression: the stored session, as the storefront keeps it. */
export const STORED_USER = "localStorage.getItem('user')"

/**
 * Waits until a JavaScript expression is true in the page. The pages run under a content
 * security policy without 'unsafe-eval', which Playwright's waitForFunction needs for polling;
 * page.evaluate is the browser's own evaluation and is not subject to it.
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${expression}`)
    await page.waitForTimeout(50)
  }
}

type Integrations = Parameters<typeof contentSecurityDirectives>[0]

/**
 * Serves the pages with the content security policy the server sends when these integrations
 * are configured: for tests that configure integrations in the browser only (through a stand-in
 * `/api/config`), where the real server's policy would rightly block the vendors' scripts.
 */
export async function servePolicyFor(page: Page, configured: Partial<Integrations>) {
  const none: Integrations = {
    mapsApiKey: null,
    chatWidgetId: null,
    analyticsId: null,
    socialTimelineUrl: null,
    cardProviderKey: null,
  }
  const directives = contentSecurityDirectives({ ...none, ...configured })
  const policy = Object.entries(directives)
    .map(
      ([name, values]) =>
        `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`
    )
    .join('; ')
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback()
    const response = await route.fetch()
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-security-policy': policy },
    })
  })
}
