import { test } from '@japa/runner'
import User from '#accounts/models/user'
import Profile from '#profiles/models/profile'
import { PHONE, readyCustomer, signInAs, STORED_USER, useBrowser } from './helpers.js'

test.group('Storefront: account overview', (group) => {
  const browser = useBrowser(group)

  test('account info edits are saved and shown', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Edit account info' }).click()
    await page.getByLabel('Full Name').fill('Riley Brooks')
    await page.getByLabel('Phone').fill('')
    await page.getByLabel('Phone').pressSequentially('6465550123')
    assert.equal(await page.getByLabel('Phone').inputValue(), '646-555-0123')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Riley Brooks').waitFor()
    await page.getByText('646-555-0123').waitFor()

    const saved = await User.findOrFail(user.id)
    assert.equal(saved.name, 'Riley Brooks')
    assert.equal(saved.phone, '6465550123')
  })

  test('an international phone reads as typed, kept with its country code', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Edit account info' }).click()
    await page.getByLabel('Phone').fill('')
    await page.getByLabel('Phone').pressSequentially('+1 212 555 0147')
    assert.equal(await page.getByLabel('Phone').inputValue(), '+1 212 555 0147')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.locator('.details dd', { hasText: '+1 212 555 0147' }).waitFor()
    assert.equal(await page.getByText('121-255-5014-7').count(), 0)

    const saved = await User.findOrFail(user.id)
    assert.equal(saved.phone, '+12125550147')
  })

  test('the billing address edits, with a free-text state outside the US', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage(PHONE)
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Edit billing address' }).click()
    await page.getByLabel('Address 1').fill('12 Rue de Rivoli')
    await page.getByLabel('City').fill('Paris')
    await page.getByLabel('Zip Code').fill('75001')
    await page.getByLabel('Country').selectOption('FR')
    const state = page.getByLabel('State / Province')
    assert.equal(await state.getAttribute('placeholder'), 'Enter State / Province')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await state.waitFor({ state: 'visible' })
    await page.locator('.field__error', { hasText: 'Required' }).waitFor()
    await state.fill('Île-de-France')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('12 Rue de Rivoli').waitFor()

    const saved = await User.findOrFail(user.id)
    assert.deepInclude(saved.billingAddress!, {
      line1: '12 Rue de Rivoli',
      city: 'Paris',
      postal_code: '75001',
      state: 'Île-de-France',
      country: 'FR',
    })
  })

  test('the Update Card modal checks the card and closes on an outside click', async ({
    assert,
  }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByText('•••• 4242').waitFor()
    await page.getByRole('button', { name: 'Update Card' }).click()
    const dialog = page.getByRole('dialog', { name: 'Update Card' })
    await dialog.getByLabel('Card Number').fill('4859000000000006')
    await dialog.getByLabel('MM/YY').pressSequentially('1129')
    await dialog.getByLabel('CVV').fill('12')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Please enter a valid card.').waitFor()
    assert.isNull(await dialog.getByLabel('Card Number').getAttribute('maxlength'))

    await page.mouse.click(10, 10)
    await dialog.waitFor({ state: 'hidden' })
  })

  test('a new card saved from the modal replaces the card on file', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Update Card' }).click()
    const dialog = page.getByRole('dialog', { name: 'Update Card' })
    await dialog.getByLabel('Card Number').fill('5555555555554444')
    await dialog.getByLabel('MM/YY').pressSequentially('1130')
    await dialog.getByLabel('CVV').fill('321')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByText('•••• 4444').waitFor()
    const saved = await User.findOrFail(user.id)
    assert.equal(saved.cardLast4, '4444')
  })

  test('a card typed or pasted with spaces or dashes is saved as typed: 15, 16 and 19 digits', async ({
    assert,
  }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage(PHONE)
    await signInAs(page, user)
    await page.goto('/user/account')
    const cases = [
      { typed: '5555 5555 5555 4444', paste: false, shown: '5555 5555 5555 4444', last4: '4444' },
      {
        typed: '4000-0000-0000-0000-006',
        paste: true,
        shown: '4000 0000 0000 0000 006',
        last4: '0006',
      },
      { typed: '3782 822463 10005', paste: false, shown: '3782 8224 6310 005', last4: '0005' },
    ]
    for (const card of cases) {
      await page.getByRole('button', { name: 'Update Card' }).click()
      const dialog = page.getByRole('dialog', { name: 'Update Card' })
      const field = dialog.getByLabel('Card Number')
      if (card.paste) await field.fill(card.typed)
      else await field.pressSequentially(card.typed)
      assert.equal(await field.inputValue(), card.shown, card.typed)
      await dialog.getByLabel('MM/YY').pressSequentially('1130')
      await dialog.getByLabel('CVV').fill(card.last4 === '0005' ? '4321' : '321')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.getByText(`•••• ${card.last4}`).waitFor()
      const saved = await User.findOrFail(user.id)
      assert.equal(saved.cardLast4, card.last4, card.typed)
    }
  })

  test('deleting the account asks for the password, then signs out', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage(PHONE)
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Delete account' }).click()
    await page.getByLabel('Password').fill('not-my-password')
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await page.getByText('Your password is not correct.').waitFor()
    const stillThere = await User.findOrFail(user.id)
    assert.isNull(stillThere.deletedAt)

    await page.getByLabel('Password').fill('correct-horse-battery')
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await page.getByText('Your account was deleted.').waitFor()
    assert.isNull(await page.evaluate(STORED_USER))
    const deleted = await User.findOrFail(user.id)
    assert.isNotNull(deleted.deletedAt)
    assert.lengthOf(await Profile.query().where('user_id', user.id), 0)
  })
})
