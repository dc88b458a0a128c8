import { test } from '@japa/runner'
import User from '#accounts/models/user'
import { UserFactory } from '#database/factories/user_factory'
import { CARD_AUTHENTICATION_FAILED } from '#payments/gateways/payment_gateway'
import { pendingOrder, placeHolds, TEST_CARDS } from '#tests/helpers'
import { readyCustomer, signInAs, useBrowser } from './helpers.js'

/*
| A card whose bank asks for 3-D Secure, on the sandbox gateway: the customer is taken to the
| sandbox's stand-in challenge page, answers it, and comes back to where they were.
*/
const SMALL_PHONE = { width: 360, height: 740 }

test.group('Storefront: 3-D Secure when a card is saved', (group) => {
  const browser = useBrowser(group)

  test('on the sign-up card step, completing the challenge saves the card and goes on', async ({
    assert,
  }) => {
    const user = await UserFactory.apply('withBilling').create()
    const page = await browser.newPage(SMALL_PHONE)
    await signInAs(page, user)
    await page.goto('/addCard')
    await page.getByLabel('Card Number').pressSequentially('4000002500003155')
    await page.getByLabel('MM/YY').pressSequentially('1230')
    await page.getByLabel('CVV').fill('123')
    await page.getByRole('button', { name: 'Add and Shop' }).click()

    await page.waitForURL('**/sandbox/3ds/**')
    await page.getByText('Test mode: sandbox stand-in for 3-D Secure').waitFor()
    await page.getByText('ending in 3155').waitFor()
    const complete = page.getByRole('button', { name: 'Complete authentication' })
    const box = await complete.boundingBox()
    assert.isAtMost(box!.x + box!.width, SMALL_PHONE.width)
    await complete.click()

    await page.waitForURL('**/shop')
    const saved = await User.findOrFail(user.id)
    assert.equal(saved.cardLast4, '3155')
    assert.match(saved.cardPaymentMethodId!, /^pm_sbx_/)
    assert.notInclude(page.url(), 'setup_intent')
  })

  test('in the account, failing the challenge keeps the old card and says why', async ({
    assert,
  }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage(SMALL_PHONE)
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Update Card' }).click()
    const dialog = page.getByRole('dialog', { name: 'Update Card' })
    await dialog.getByLabel('Card Number').fill('4000002760003184')
    await dialog.getByLabel('MM/YY').pressSequentially('1130')
    await dialog.getByLabel('CVV').fill('321')
    await dialog.getByRole('button', { name: 'Save' }).click()

    await page.waitForURL('**/sandbox/3ds/**')
    await page.getByRole('button', { name: 'Fail authentication' }).click()

    await page.waitForURL('**/user/account')
    await page.getByRole('alert').filter({ hasText: CARD_AUTHENTICATION_FAILED }).waitFor()
    await page.getByText('•••• 4242').waitFor()
    const saved = await User.findOrFail(user.id)
    assert.equal(saved.cardLast4, '4242')
  })

  test('in the account, completing the challenge shows the new card', async ({ assert }) => {
    const { user } = await readyCustomer()
    const page = await browser.newPage()
    await signInAs(page, user)
    await page.goto('/user/account')
    await page.getByRole('button', { name: 'Update Card' }).click()
    const dialog = page.getByRole('dialog', { name: 'Update Card' })
    await dialog.getByLabel('Card Number').fill('4000002500003155')
    await dialog.getByLabel('MM/YY').pressSequentially('1130')
    await dialog.getByLabel('CVV').fill('321')
    await dialog.getByRole('button', { name: 'Save' }).click()

    await page.waitForURL('**/sandbox/3ds/**')
    await page.getByRole('button', { name: 'Complete authentication' }).click()
    await page.waitForURL('**/user/account')
    await page.getByText('Your card was confirmed and saved.').waitFor()
    await page.getByText('•••• 3155').waitFor()
    const saved = await User.findOrFail(user.id)
    assert.equal(saved.cardLast4, '3155')
  })
})

test.group('Storefront: 3-D Secure on the $1.00 card check', (group) => {
  const browser = useBrowser(group)

  test('a card check that needs confirmation is confirmed from the orders page', async ({
    assert,
  }) => {
    const { user, order } = await pendingOrder({ card: TEST_CARDS.needsAuthentication })
    await placeHolds()
    await order.refresh()
    assert.equal(order.holdStatus, 'requires_action')

    const page = await browser.newPage(SMALL_PHONE)
    await signInAs(page, user)
    await page.goto('/user/orders')
    await page.getByText('Needs your confirmation').waitFor()
    await page.getByRole('button', { name: 'Confirm card check' }).click()

    await page.waitForURL('**/sandbox/3ds/**')
    await page.getByText('$1.00 card check').first().waitFor()
    await page.getByRole('button', { name: 'Complete authentication' }).click()

    await page.waitForURL('**/user/orders')
    await page.getByText('Thank you: your $1.00 card check is confirmed.').waitFor()
    await order.refresh()
    assert.equal(order.holdStatus, 'placed')
    assert.equal(order.status, 'pending')
  })
})
