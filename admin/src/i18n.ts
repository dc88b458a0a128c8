import polyglotI18nProvider from 'ra-i18n-polyglot'
import englishMessages from 'ra-language-english'
import type { TranslationMessages } from 'react-admin'
import { ORDER_STATUS_LABELS } from '@shared/vocabulary'
import { mailboxMessages } from './emails/mailboxMessages'
import { resourceMessages } from './i18n/resourceMessages'
import { dashboardMessages, holdMessages, queueMessages } from './i18n/dashboardMessages'
import { productMessages } from './i18n/productMessages'
import { orderMessages } from './i18n/orderMessages'
import { releaseRunMessages, reportMessages } from './i18n/releaseMessages'

/*
| Every word of the console, merged here: react-admin's own messages, then resource and field
| names (i18n/resourceMessages.ts), then the console's texts (`dropslot.*`, the larger parts of
| them in i18n/).
*/
const messages: TranslationMessages = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    auth: {
      ...englishMessages.ra.auth,
      username: 'E-mail',
      sign_in: 'Sign in to the ops console',
    },
  },
  resources: resourceMessages,
  dropslot: {
    title: 'Dropslot ops',
    auth: {
      not_admin:
        'This console is for Dropslot admins only. Your account is not an admin account, so you have been signed out.',
    },
    // The one table of order status labels, shared with the server and the storefront.
    status: { ...ORDER_STATUS_LABELS },
    dashboard: dashboardMessages,
    holds: holdMessages,
    queues: queueMessages,
    products: productMessages,
    orders: orderMessages,
    subscribers: {
      from: 'Signed up from',
      until: 'Signed up until',
      export: 'Export CSV',
      exported: 'CSV downloaded',
    },
    release_runs: releaseRunMessages,
    search: {
      products: 'Search title, slug, brand',
      orders: 'E-mail, name or order #',
      customers: 'E-mail, name or phone',
      promo: 'Search codes',
      subscribers: 'Search e-mails',
      emails: 'Recipient or subject',
      audit: 'Action, who, reason or id',
      incidents: 'Title, detail or subject',
      mail: 'Subject, sender or order #',
    },
    incidents: {
      status_open: 'Open',
      status_resolved: 'Resolved',
      lasted: 'Lasted',
      open_now: '%{smart_count} alert open |||| %{smart_count} alerts open',
      since: 'open since %{time}',
      all: 'All incidents',
    },
    report: reportMessages,
    timeline: {
      bought: 'Slot bought',
      processing: 'Submitted at release',
      success: 'Succeeded',
      fail: 'Failed (not secured)',
      cancelled: 'Cancelled',
    },
    customers: {
      details: 'Details',
      billing: 'Billing address',
      orders: 'Orders',
      profiles: 'Profiles',
      emails: 'E-mails',
      email_hint: 'Customers change their own e-mail.',
    },
    emails: { html: 'HTML', text: 'Text', message: 'Message' },
    mailbox: mailboxMessages,
    promo: {
      code_hint: 'Stored upper-case; customers can type it in any case.',
      max_uses_hint: 'Empty: unlimited',
    },
    common: {
      from: 'From',
      until: 'Until',
      cancel: 'Cancel',
      confirm: 'Confirm',
      none: '—',
    },
  },
}

export const i18nProvider = polyglotI18nProvider(
  () => messages,
  'en',
  [{ locale: 'en', name: 'English' }],
  {
    allowMissing: true,
  }
)
