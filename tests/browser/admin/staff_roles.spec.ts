import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import User from '#accounts/models/user'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_ADMIN_TOTP_SECRET } from '#database/seeders/demo_seeder'
import { secondFactor } from '#accounts/services/second_factor'
import { clock } from '#core/services/clock'
import { authenticatorCode, baseUrl, signIn, useConsolePage } from './chromium.js'

const PASSWORD = 'correct-horse-battery'

/** A staff member of a role, with the demo authenticator added. */
async function staffMember(role: 'owner' | 'support') {
  const user = await UserFactory.merge({ role, name: `${role} member` }).create()
  await secondFactor.enrolKnownSecret(user.id, DEMO_ADMIN_TOTP_SECRET)
  return user
}

test.group('Admin console: roles and step-up in Chromium', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('an owner changing a role after 5 minutes is asked for the code in place', async ({
    assert,
  }) => {
    const owner = await staffMember('owner')
    const customer = await UserFactory.merge({ name: 'Role Candidate' }).create()
    await signIn(page, owner.email, PASSWORD, { totpSecret: DEMO_ADMIN_TOTP_SECRET })
    await page.getByText('Next release').waitFor()

    clock.travel(6 * 60_000)
    await page.goto(`${baseUrl()}/admin/customers/${customer.uuid}`)
    await page.getByLabel('Role').click()
    await page.getByRole('option', { name: /^Viewer/ }).click()
    await page.getByRole('button', { name: 'Save' }).click()

    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' })
    await dialog.waitFor()
    await dialog.getByLabel('Authentication code').fill(authenticatorCode(DEMO_ADMIN_TOTP_SECRET))
    await dialog.getByRole('button', { name: 'Verify' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page
      .getByText(/Element updated|Customer updated|updated/i)
      .first()
      .waitFor()
    const saved = await User.findOrFail(customer.id)
    assert.equal(saved.role, 'viewer')
  })

  test('support edits a customer but not their role, and sees their own session', async ({
    assert,
  }) => {
    const support = await staffMember('support')
    const customer = await UserFactory.merge({ name: 'Kept Customer' }).create()
    await signIn(page, support.email, PASSWORD, { totpSecret: DEMO_ADMIN_TOTP_SECRET })
    await page.getByText('Next release').waitFor()

    await page.goto(`${baseUrl()}/admin/customers/${customer.uuid}`)
    await page.getByText('Only an owner changes roles.').waitFor()
    assert.isTrue(await page.getByLabel('Role').isDisabled())

    await page.goto(`${baseUrl()}/admin/sessions`)
    const rows = page.locator('tbody tr')
    await rows.first().waitFor()
    assert.equal(await rows.count(), 1)
    await rows.first().getByText(support.email).waitFor()
  })

  test('the console signs out by itself after 15 minutes without a click or a key', async () => {
    const owner = await staffMember('owner')
    await page.clock.install()
    await signIn(page, owner.email, PASSWORD, { totpSecret: DEMO_ADMIN_TOTP_SECRET })
    await page.getByText('Next release').waitFor()
    await page.clock.fastForward('14:00')
    await page.mouse.click(5, 5)
    await page.clock.fastForward('14:00')
    await page.getByText('Next release').waitFor()
    await page.clock.fastForward('01:05')
    await page.getByRole('button', { name: /sign in/i }).waitFor()
  })
})
