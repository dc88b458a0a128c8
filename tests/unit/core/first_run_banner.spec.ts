import { test } from '@japa/runner'
import dropslotConfig from '#config/dropslot'
import { firstRunBanner } from '#core/services/first_run_banner'
import { DEMO_ADMIN, DEMO_ADMIN_TOTP_SECRET, DEMO_CUSTOMER } from '#database/seeders/demo_seeder'

test.group('First-run banner', () => {
  test('names the storefront, the console, the demo logins and the mailbox e-mails go to', ({
    assert,
  }) => {
    const text = firstRunBanner({
      appUrl: 'http://localhost:3333/',
      production: false,
      smtp: null,
    }).join('\n')
    assert.include(text, 'Storefront     http://localhost:3333\n')
    assert.include(text, 'Admin console  http://localhost:3333/admin')
    assert.include(text, `${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`)
    assert.include(text, `${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`)
    assert.include(text, `authenticator secret ${DEMO_ADMIN_TOTP_SECRET}`)
    assert.include(
      text,
      "E-mails go to the console's mailbox at http://localhost:3333/admin/mailbox (SMTP is not configured)"
    )
    assert.notInclude(text, 'not sent')
    assert.isAtMost(text.split('\n').length, 8)
  })

  test('in production: the URLs and the mail server, no demo login', ({ assert }) => {
    const text = firstRunBanner({
      appUrl: 'https://shop.example',
      production: true,
      smtp: { host: 'smtp.example', port: 587 },
    }).join('\n')
    assert.include(text, 'https://shop.example/admin')
    assert.include(text, 'E-mails are sent through SMTP at smtp.example:587')
    for (const secret of [
      DEMO_CUSTOMER.email,
      DEMO_CUSTOMER.password,
      DEMO_ADMIN.email,
      DEMO_ADMIN.password,
      DEMO_ADMIN_TOTP_SECRET,
    ]) {
      assert.notInclude(text, secret)
    }
    assert.notInclude(text, 'Demo')
  })

  test('by default it reads the running configuration', ({ assert }) => {
    const text = firstRunBanner().join('\n')
    assert.include(text, `Storefront     ${dropslotConfig.appUrl}`)
    assert.include(text, DEMO_CUSTOMER.email)
  })
})
