import { test } from '@japa/runner'
import { orderNumber } from '#orders/services/order_numbers'
import type { ArcReading, Reading } from '#mail/services/mail_reading'
import { retailerById, type ParsedMail, type Retailer } from '#mail/services/retailers'
import {
  AUTHENTICITY_CHECKS,
  CONTENT_CHECKS,
  addressedToTheChosenOrder,
  deliveredToTheNamedAddress,
  firstVerdict,
  hasAMessageId,
  headersOnce,
  matchesAnOrder,
  messageIdSigned,
  orderHasARetailer,
  recognised,
  retailerOrderNumberMatches,
  sentByTheRetailer,
  signedByTheRetailer,
  sizeOnTheLadder,
  toSigned,
  type ContentContext,
  type IntakeOrder,
  type MatchContext,
} from '#mail/services/intake_checks'

/*
| Each check of the intake's decision alone, on plain data: a message that passes it, and the
| message it refuses with the action and the reason the console shows.
*/

const kith = retailerById('kith') as Retailer
const ADDRESS = 'ds-abc123@in.dropslot.test'
const ALL_HEADERS = ['from', 'to', 'subject', 'date', 'message-id']

function reading(overrides: Partial<Reading> = {}): Reading {
  return {
    messageId: '<kh-1001@kith.com>',
    subject: 'Order #KH-1001 confirmed',
    sender: 'store@kith.com',
    fromDomain: 'kith.com',
    toAddresses: [ADDRESS],
    envelopeAddresses: [],
    repeatedHeaders: [],
    text: 'Thank you for your purchase!',
    dkim: 'pass',
    passing: [{ domain: 'kith.com', headers: ALL_HEADERS }],
    partial: [],
    arc: null,
    signingDomain: 'kith.com',
    ...overrides,
  }
}

function arc(overrides: Partial<ArcReading> = {}): ArcReading {
  return {
    status: 'pass',
    sealer: 'google.com',
    trusted: true,
    untrusted: [],
    passing: [{ domain: 'kith.com', headers: ALL_HEADERS }],
    comment: null,
    ...overrides,
  }
}

function order(overrides: Partial<IntakeOrder> = {}): IntakeOrder {
  return {
    id: 7,
    size: '10',
    sizeLadder: null,
    securedRetailer: null,
    confirmationNumber: null,
    ...overrides,
  }
}

/** A message that passes every check of who signed what: addressed, on arrival. */
function matched(overrides: Partial<MatchContext> = {}): MatchContext {
  const addressed = order()
  return {
    reading: reading(),
    chosen: null,
    addressed,
    order: addressed,
    retailer: kith,
    ...overrides,
  }
}

function parsed(overrides: Partial<ParsedMail> = {}): ParsedMail {
  return {
    kind: 'confirmation',
    orderNumber: 'KH-1001',
    item: 'Kith Classic Logo Hoodie',
    size: '10',
    totalCents: 16_000,
    trackingNumber: null,
    ...overrides,
  }
}

function content(overrides: Partial<ContentContext> = {}): ContentContext {
  return { parsed: parsed(), order: order(), retailer: 'kith', ...overrides }
}

const inReview = (reason: string) => ({ action: 'review', reason })

test.group('Intake checks: the tables', () => {
  test('the checks run in this order', ({ assert }) => {
    assert.deepEqual(
      AUTHENTICITY_CHECKS.map((check) => check.name),
      [
        'headersOnce',
        'matchesAnOrder',
        'addressedToTheChosenOrder',
        'orderHasARetailer',
        'signedByTheRetailer',
        'sentByTheRetailer',
        'hasAMessageId',
        'messageIdSigned',
        'toSigned',
        'deliveredToTheNamedAddress',
      ]
    )
    assert.deepEqual(
      CONTENT_CHECKS.map((check) => check.name),
      ['recognised', 'sizeOnTheLadder', 'retailerOrderNumberMatches']
    )
  })

  test('a message that passes every check has no verdict; else the first one counts', ({
    assert,
  }) => {
    assert.isNull(firstVerdict(AUTHENTICITY_CHECKS, matched()))
    assert.isNull(firstVerdict(CONTENT_CHECKS, content()))
    // Unsigned and from another domain: the signature is checked first.
    const both = matched({ reading: reading({ dkim: 'none', passing: [], fromDomain: 'x.test' }) })
    assert.deepEqual(
      firstVerdict(AUTHENTICITY_CHECKS, both),
      inReview('The message is not signed (no DKIM signature).')
    )
  })
})

test.group('Intake checks: the order the message is matched to', () => {
  test('headersOnce', ({ assert }) => {
    assert.isNull(headersOnce(matched()))
    const twice = matched({ reading: reading({ repeatedHeaders: ['subject', 'message-id'] }) })
    assert.deepEqual(
      headersOnce(twice),
      inReview(
        'The message has more than one Subject, Message-ID header; only one copy can be signed.'
      )
    )
  })

  test('matchesAnOrder', ({ assert }) => {
    assert.isNull(matchesAnOrder(matched()))
    assert.deepEqual(
      matchesAnOrder(matched({ order: null, addressed: null })),
      inReview('No order has the address this message was sent to.')
    )
    const two = reading({ toAddresses: [ADDRESS, 'ds-def456@in.dropslot.test'] })
    assert.deepEqual(
      matchesAnOrder(matched({ reading: two, order: null, addressed: null })),
      inReview('The message names more than one order address.')
    )
  })

  test('addressedToTheChosenOrder', ({ assert }) => {
    const chosen = order({ id: 8 })
    assert.isNull(addressedToTheChosenOrder(matched({ chosen, order: chosen, addressed: null })))
    assert.isNull(addressedToTheChosenOrder(matched({ chosen, order: chosen, addressed: chosen })))
    assert.deepEqual(
      addressedToTheChosenOrder(matched({ chosen, order: chosen, addressed: order({ id: 7 }) })),
      inReview(`The message is addressed to order ${orderNumber(7)}, not to this one.`)
    )
  })

  test('orderHasARetailer', ({ assert }) => {
    assert.isNull(orderHasARetailer(matched()))
    assert.deepEqual(
      orderHasARetailer(matched({ retailer: null })),
      inReview('The order’s product names no retailer.')
    )
  })
})

test.group('Intake checks: the retailer’s signature', () => {
  test('signedByTheRetailer: its own signature, or a trusted ARC sealer’s word', ({ assert }) => {
    assert.isNull(signedByTheRetailer(matched()))
    const forwarded = reading({ dkim: 'fail', passing: [], arc: arc() })
    assert.isNull(signedByTheRetailer(matched({ reading: forwarded })))
  })

  test('signedByTheRetailer: each way a message is not signed, in the operator’s words', ({
    assert,
  }) => {
    const cases: [string, Partial<Reading>, string][] = [
      ['unsigned', { dkim: 'none', passing: [] }, 'The message is not signed (no DKIM signature).'],
      ['forged', { dkim: 'fail', passing: [] }, 'The message’s DKIM signature does not verify.'],
      [
        'another signer',
        { passing: [{ domain: 'shop.example', headers: ALL_HEADERS }] },
        'Signed by shop.example, not by Kith.',
      ],
      [
        'part of the body',
        { passing: [], partial: ['kith.com'] },
        'The signature of kith.com covers only part of the body (l=); text after it is unsigned.',
      ],
      [
        'broken ARC chain',
        {
          dkim: 'fail',
          passing: [],
          arc: arc({ status: 'fail', trusted: false, passing: [], comment: 'bad seal' }),
        },
        'The message’s own DKIM signature does not verify and its ARC chain is broken (bad seal).',
      ],
      [
        'untrusted sealer',
        {
          dkim: 'fail',
          passing: [],
          arc: arc({ trusted: false, untrusted: ['forwarder.example'], passing: [] }),
        },
        'The message’s own DKIM signature does not verify; it was forwarded (ARC) by forwarder.example, not a trusted ARC sealer.',
      ],
      [
        'trusted sealer, no retailer signature',
        { dkim: 'fail', passing: [], arc: arc({ passing: [] }) },
        'Forwarded by google.com (a trusted ARC sealer), but its first receiver saw no valid signature of Kith.',
      ],
    ]
    for (const [name, overrides, reason] of cases) {
      const verdict = signedByTheRetailer(matched({ reading: reading(overrides) }))
      assert.deepEqual(verdict, inReview(reason), name)
    }
  })

  test('sentByTheRetailer', ({ assert }) => {
    assert.isNull(sentByTheRetailer(matched()))
    assert.isNull(sentByTheRetailer(matched({ reading: reading({ fromDomain: 'mail.kith.com' }) })))
    assert.deepEqual(
      sentByTheRetailer(matched({ reading: reading({ fromDomain: 'kith-sale.example' }) })),
      inReview('Sent from kith-sale.example, not by Kith.')
    )
    assert.deepEqual(
      sentByTheRetailer(matched({ reading: reading({ fromDomain: null }) })),
      inReview('Sent from nobody, not by Kith.')
    )
  })
})

test.group('Intake checks: what the signature covers', () => {
  test('hasAMessageId', ({ assert }) => {
    assert.isNull(hasAMessageId(matched()))
    assert.deepEqual(
      hasAMessageId(matched({ reading: reading({ messageId: null }) })),
      inReview('The message has no Message-ID.')
    )
  })

  test('messageIdSigned', ({ assert }) => {
    assert.isNull(messageIdSigned(matched()))
    const keyless = [{ domain: 'kith.com', headers: ['from', 'to', 'subject'] }]
    assert.deepEqual(
      messageIdSigned(matched({ reading: reading({ passing: keyless }) })),
      inReview('The signature does not cover the Message-ID header.')
    )
    const forwarded = reading({ dkim: 'fail', passing: [], arc: arc({ passing: keyless }) })
    assert.deepEqual(
      messageIdSigned(matched({ reading: forwarded })),
      inReview('The ARC signature of google.com does not cover the Message-ID header.')
    )
  })

  test('toSigned: on arrival only', ({ assert }) => {
    assert.isNull(toSigned(matched()))
    const toless = reading({ passing: [{ domain: 'kith.com', headers: ['from', 'message-id'] }] })
    assert.deepEqual(
      toSigned(matched({ reading: toless })),
      inReview('The signature does not cover the To header.')
    )
    // The operator chose the order: the To header matched nothing.
    const chosen = order()
    assert.isNull(toSigned(matched({ reading: toless, chosen, order: chosen })))
  })

  test('deliveredToTheNamedAddress: on arrival only', ({ assert }) => {
    assert.isNull(deliveredToTheNamedAddress(matched()))
    const delivered = reading({ envelopeAddresses: [ADDRESS] })
    assert.isNull(deliveredToTheNamedAddress(matched({ reading: delivered })))
    const elsewhere = reading({ envelopeAddresses: ['ds-def456@in.dropslot.test'] })
    assert.deepEqual(
      deliveredToTheNamedAddress(matched({ reading: elsewhere })),
      inReview('The message was delivered to another order’s address than the one it names.')
    )
    const chosen = order()
    assert.isNull(
      deliveredToTheNamedAddress(matched({ reading: elsewhere, chosen, order: chosen }))
    )
  })
})

test.group('Intake checks: what the signed message says', () => {
  test('recognised', ({ assert }) => {
    assert.isNull(recognised(content()))
    assert.isNull(recognised(content({ parsed: parsed({ kind: 'shipped' }) })))
    assert.deepEqual(
      recognised(content({ parsed: parsed({ kind: 'unknown' }) })),
      inReview('No parser of the retailer recognises this message.')
    )
  })

  test('sizeOnTheLadder', ({ assert }) => {
    const ladder = order({ size: '10', sizeLadder: JSON.stringify(['10', '10.5', '9.5']) })
    assert.isNull(sizeOnTheLadder(content({ order: ladder, parsed: parsed({ size: 'US 10.5' }) })))
    assert.isNull(sizeOnTheLadder(content({ parsed: parsed({ size: null }) })))
    assert.deepEqual(
      sizeOnTheLadder(content({ order: ladder, parsed: parsed({ size: '11' }) })),
      inReview('The e-mail is for size 11; the order is for size 10, then 10.5, then 9.5.')
    )
    assert.deepEqual(
      sizeOnTheLadder(content({ parsed: parsed({ size: 'm' }) })),
      inReview('The e-mail is for size m; the order is for size 10.')
    )
  })

  test('retailerOrderNumberMatches', ({ assert }) => {
    const confirmed = order({ confirmationNumber: 'KH-1001' })
    assert.isNull(retailerOrderNumberMatches(content({ order: confirmed })))
    assert.isNull(
      retailerOrderNumberMatches(
        content({ order: confirmed, parsed: parsed({ orderNumber: '#kh-1001' }) })
      )
    )
    assert.isNull(retailerOrderNumberMatches(content()))
    // Another retailer won the order: its number is its own.
    const elsewhere = order({ confirmationNumber: 'NK-55555', securedRetailer: 'nike' })
    assert.isNull(retailerOrderNumberMatches(content({ order: elsewhere })))
    assert.deepEqual(
      retailerOrderNumberMatches(
        content({ order: confirmed, parsed: parsed({ orderNumber: 'KH-2004' }) })
      ),
      inReview('The e-mail is for the retailer’s order KH-2004; this order is KH-1001 there.')
    )
  })
})
