import { test } from '@japa/runner'
import Profile from '#profiles/models/profile'
import { UserFactory } from '#database/factories/user_factory'
import { profileService } from '#profiles/services/profile_service'
import { readyCustomer, signInAs, useBrowser } from './helpers.js'

test.group('Storefront: checkout profiles', (group) => {
  const browser = useBrowser(group)

  test('the 3-step wizard creates a profile, keyboard only', async ({ assert }) => {
    const user = await UserFactory.create()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/profiles')
    await page.getByRole('heading', { name: 'No profiles yet' }).waitFor()

    await page.getByRole('button', { name: 'Add a New Profile' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'New Profile' })
    await dialog.getByText('Step 1/3').waitFor()
    await page.keyboard.press('Enter')
    await dialog.getByText('Please complete the form.').waitFor()

    // Focus starts on the first field; Tab walks the form, Enter goes to the next step.
    await page.keyboard.type('Weekend')
    await page.keyboard.press('Tab')
    await page.keyboard.type('weekend@example.test')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Sam Carter')
    await page.keyboard.press('Tab')
    await page.keyboard.type('3125550199')
    assert.equal(await dialog.getByLabel('Phone').inputValue(), '312-555-0199')
    await page.keyboard.press('Enter')

    await dialog.getByText('Step 2/3').waitFor()
    await dialog.getByLabel('Address 1').fill('77 Wacker Dr')
    await dialog.getByLabel('City').fill('Chicago')
    await dialog.getByLabel('Zip').fill('60601')
    await dialog.getByLabel('State', { exact: true }).selectOption('IL')
    await dialog.getByRole('button', { name: 'Next' }).click()

    await dialog.getByText('Step 3/3').waitFor()
    await dialog.getByLabel('Card Number').fill('4767000000000002')
    await dialog.getByLabel('MM/YY').pressSequentially('1230')
    assert.equal(await dialog.getByLabel('MM/YY').inputValue(), '12/30')
    await dialog.getByLabel('CVV').fill('123')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Please enter a valid card.').waitFor()

    // Typed as printed on the card: spaces kept out of the count, nothing cut short.
    await dialog.getByLabel('Card Number').fill('')
    await dialog.getByLabel('Card Number').pressSequentially('5555 5555 5555 4444')
    assert.equal(await dialog.getByLabel('Card Number').inputValue(), '5555 5555 5555 4444')
    await dialog.getByLabel('Keep my security code for later releases', { exact: false }).check()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('dialog').waitFor({ state: 'hidden' })

    const card = page.locator('.profile-card', { hasText: 'Weekend' })
    await card.waitFor()
    assert.include(await card.textContent(), 'Sam Carter')
    assert.include(await card.textContent(), '77 Wacker Dr')
    assert.include(await card.textContent(), '4444')

    const saved = await Profile.query().where('user_id', user.id).firstOrFail()
    assert.equal(saved.profileName, 'Weekend')
    assert.equal(saved.phone, '3125550199')
    assert.equal(saved.shipping.firstName, 'Sam')
    assert.equal(saved.shipping.lastName, 'Carter')
    assert.equal(saved.cardLast4, '4444')
    assert.isTrue(Boolean(saved.keepCardCode))
  })

  test('editing a profile keeps its card when the card step is left blank', async ({ assert }) => {
    const { user, profile } = await readyCustomer('Home')
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/profiles')
    await page.getByRole('button', { name: 'Edit Home' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    assert.equal(await dialog.getByLabel('Profile Name').inputValue(), 'Home')
    await dialog.getByLabel('Profile Name').fill('Home (new)')
    await dialog.getByRole('button', { name: 'Next' }).click()
    await dialog.getByLabel('Address 1').fill('9 Elm St')
    await dialog.getByRole('button', { name: 'Next' }).click()
    await dialog.getByText('Leave blank to keep the card ending in 4242.').waitFor()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('dialog').waitFor({ state: 'hidden' })
    await page.locator('.profile-card', { hasText: 'Home (new)' }).waitFor()

    await profile.refresh()
    assert.equal(profile.profileName, 'Home (new)')
    assert.equal(profile.shipping.address1, '9 Elm St')
    assert.equal(profile.cardLast4, '4242')
    assert.equal(profileService.openCard(profile).number, '4242424242424242')
  })

  test('deleting a profile asks first, then removes it', async ({ assert }) => {
    const { user, profile } = await readyCustomer('Office')
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/profiles')
    await page.getByRole('button', { name: 'Delete Office' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete profile?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    assert.isNotNull(await Profile.find(profile.id))

    await page.getByRole('button', { name: 'Delete Office' }).click()
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { name: 'No profiles yet' }).waitFor()
    assert.isNull(await Profile.find(profile.id))
  })
})
