import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright-core'
import Product from '#catalog/models/product'
import Incident from '#alerts/models/incident'
import EmailMessage from '#notifications/models/email_message'
import { UserFactory } from '#database/factories/user_factory'
import { DEMO_PAST_RELEASE } from '#database/demo/demo_outcomes'
import { baseUrl, signIn, useConsolePage } from './chromium.js'

const PASSWORD = 'correct-horse-battery'

test.group('Admin console: incidents and release reports', (group) => {
  const currentPage = useConsolePage(group)
  let page: Page
  group.each.setup(() => {
    page = currentPage()
  })

  test('an open incident is on top of the dashboard and has its page; resolved ones are listed', async ({
    assert,
  }) => {
    const now = DateTime.now()
    const open = await Incident.create({
      rule: 'release_run_failed',
      subject: '',
      openKey: 'release_run_failed:',
      status: 'open',
      title: 'Release run #41 failed',
      detail: 'checkout engine unreachable at http://127.0.0.1:59999/hook: ECONNREFUSED',
      value: 41,
      threshold: 0,
      openedAt: now.minus({ minutes: 3 }),
      lastSeenAt: now,
      resolvedAt: null,
    })
    await Incident.create({
      rule: 'queue_backlog',
      subject: 'email',
      openKey: null,
      status: 'resolved',
      title: 'Queue email: the oldest job has waited 95 s',
      detail: 'Are its workers running?',
      value: 95,
      threshold: 60,
      openedAt: now.minus({ hours: 2 }),
      lastSeenAt: now.minus({ hours: 1 }),
      resolvedAt: now.minus({ hours: 1 }),
    })
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, PASSWORD)
    const banner = page.getByTestId('open-incidents')
    await banner.waitFor()
    assert.include(await banner.textContent(), '1 alert open')
    await banner.getByRole('link', { name: 'Release run #41 failed' }).click()
    await page.getByText('ECONNREFUSED').first().waitFor()
    assert.include(page.url(), `/admin/incidents/${open.id}/show`)

    await page.goto(`${baseUrl()}/admin/incidents`)
    await page.getByText('Queue email: the oldest job has waited 95 s').waitFor()
    assert.equal(await page.locator('tbody tr').count(), 2)
  })

  test("a released product's page shows its report, reconciled with the gateway to the cent", async ({
    assert,
  }) => {
    const product = await Product.findByOrFail('slug', DEMO_PAST_RELEASE.slug)
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, PASSWORD)
    await page.getByText('Next release').waitFor()
    await page.goto(`${baseUrl()}/admin/products/${product.id}/show`)
    const panel = page.getByTestId('report-panel')
    await panel.waitFor()
    assert.include(await panel.textContent(), '10 orders, 10 submitted, 4 succeeded (40.0 %)')
    await panel.getByText(/Balanced to the cent/).waitFor()

    // A fee the gateway captured for a cent more than the ledger says.
    const fee = await db
      .from('payment_ledger')
      .join('orders', 'orders.id', 'payment_ledger.order_id')
      .where('orders.product_id', product.id)
      .where('payment_ledger.kind', 'fee')
      .where('payment_ledger.status', 'succeeded')
      .select('payment_ledger.gateway_ref', 'payment_ledger.amount_cents')
      .firstOrFail()
    await db
      .from('sandbox_payment_intents')
      .where('id', fee.gateway_ref)
      .update({ amount: Number(fee.amount_cents) + 1 })
    await page.reload()
    const reconciliation = page.getByTestId('reconciliation')
    await reconciliation.getByText('1 difference').waitFor()
    assert.include(await reconciliation.textContent(), 'Amounts differ (charge)')
    assert.include(await reconciliation.textContent(), '$28.01')
  })
  test('the mailbox shows an e-mail kept without SMTP as the customer sees it', async () => {
    await EmailMessage.create({
      toAddress: 'mailbox-reader@example.test',
      template: 'order_confirmation',
      subject: 'Your slot for the Mailbox Runner is booked',
      textBody: 'Your slot is booked. Text part.',
      htmlBody: '<p>Your slot is <strong>booked</strong>. HTML part.</p>',
      status: 'kept',
      attempts: 1,
      keptAt: DateTime.now(),
    })
    const admin = await UserFactory.apply('admin').create()
    await signIn(page, admin.email, PASSWORD)
    await page.getByRole('menuitem', { name: 'Mailbox' }).click()
    const row = page.getByRole('row', { name: /Mailbox Runner/ })
    await row.waitFor()
    // The row's chevron (react-admin hides it from the accessibility tree; a person sees it).
    await row.getByRole('button', { name: 'Expand', includeHidden: true }).click()
    await page.frameLocator('iframe').getByText('HTML part.').waitFor()
    await page.getByText('Your slot is booked. Text part.').waitFor()
  })
})
