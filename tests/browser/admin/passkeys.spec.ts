import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright-core'
import dropslotConfig from '#config/dropslot'
import { UserFactory } from '#database/factories/user_factory'
import { useConsolePage } from './chromium.js'

const PASSWORD = 'correct-horse-battery'

/**
 * A passkey is bound to the site's name, so the console is opened at APP_URL (localhost), the
 * origin the server expects; Chromium's virtual authenticator (DevTools' WebAuthn domain) plays
 * the phone or security key and always approves.
 */
async function withVirtualAuthenticator(page: Page) {
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { devtools, authenticatorId }
}

async function enterPassword(page: Page, email: string) {
  await page.goto(`${dropslotConfig.appUrl}/admin`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
}

test.group('Admin console: passkeys in Chromium', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('a new staff member adds a passkey at enrolment, then signs in with it', async ({
    assert,
  }) => {
    const owner = await UserFactory.merge({ role: 'owner' }).create()
    const { devtools, authenticatorId } = await withVirtualAuthenticator(page)

    await enterPassword(page, owner.email)
    await page.getByRole('heading', { name: 'Add an authenticator' }).waitFor()
    await page.getByRole('button', { name: 'Add a passkey instead' }).click()
    await page.getByRole('button', { name: 'I have saved these codes' }).click()
    await page.getByText('Next release').waitFor()
    const kept = await db.from('passkeys').where('user_id', owner.id)
    assert.lengthOf(kept, 1)
    const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId })
    assert.lengthOf(credentials, 1)

    await page.evaluate(`localStorage.clear()`)
    await enterPassword(page, owner.email)
    await page.getByRole('heading', { name: 'Enter your authentication code' }).waitFor()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await page.getByText('Next release').waitFor()
    const used = await db.from('passkeys').where('user_id', owner.id).first()
    assert.isNotNull(used.last_used_at)
  })
})
