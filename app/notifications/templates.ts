import dropslotConfig from '#config/dropslot'
import { formatCents } from '#shared/pricing'
import { CARD_WORDS } from '#shared/vocabulary'
import { ladderWords, priceCapWords, retailerChoiceWords } from '#shared/slot_choices'

export type RenderedEmail = { subject: string; text: string; html: string }

function escapeHtml(value: string) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** One layout for every message: a plain-text part and a simple, readable HTML part. */
export function layout(
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string }
) {
  const support = dropslotConfig.supportEmail
  const footer = `Questions? Write to ${support}.`
  const text = [
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    '',
    footer,
  ].join('\n\n')
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">',
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="background:#111;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
      : '',
    `<p style="color:#555;font-size:13px">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('')
  return { subject, text, html }
}

/** A slot's choices, as the customer's order answer has them (`presentOrder`). */
export type SlotChoiceDetails = {
  /** The sizes tried in order, the first the slot's size. */
  sizes: readonly string[]
  /** The retailers the buyer accepts; null: every retailer of the release. */
  retailers: readonly string[] | null
  maxItemPriceCents: number | null
}

/** One line per choice the buyer made; a slot of one size, any retailer and no cap has none. */
function slotChoiceLines(choices: SlotChoiceDetails): string[] {
  const cap = priceCapWords(choices.maxItemPriceCents)
  return [
    ...(choices.sizes.length > 1 ? [`Sizes, in order: ${ladderWords(choices.sizes)}`] : []),
    ...(choices.retailers ? [`Retailers: ${retailerChoiceWords(choices.retailers)}`] : []),
    ...(cap ? [`Price cap: ${cap}`] : []),
  ]
}

export const templates = {
  welcome(name: string): RenderedEmail {
    return layout('Welcome to Dropslot', [
      `Hi ${name || 'there'}, your Dropslot account is ready.`,
      'Add a billing address and a card, save a profile, and grab a slot on the next release.',
    ])
  },

  passwordReset(resetUrl: string, ttlMinutes: number): RenderedEmail {
    return layout(
      'Reset your Dropslot password',
      [
        'Someone (hopefully you) asked to reset the password of your Dropslot account.',
        `The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, ignore this e-mail.`,
      ],
      { label: 'Choose a new password', url: resetUrl }
    )
  },

  newsletterConfirmation(): RenderedEmail {
    return layout("You're on the Dropslot list", [
      'Thanks for signing up. We will e-mail you about upcoming releases and open slots.',
    ])
  },

  orderReceived(
    order: {
      productTitle: string
      orderId: string
      size: string
      style: string
      priceCents: number
      holdCents: number
    } & SlotChoiceDetails
  ): RenderedEmail {
    return layout(`Your slot for ${order.productTitle} is secured`, [
      `Order ${order.orderId}: ${order.productTitle}, size ${order.size}, style ${order.style}.`,
      ...slotChoiceLines(order),
      `Service fee: ${dollars(order.priceCents)}, charged to your card on file only if we check the item out for you. A failed order costs nothing.`,
      `We place a ${dollars(order.holdCents)} check on your card on file to verify it. ${CARD_WORDS.check}`,
      CARD_WORDS.profile,
    ])
  },

  drawEntered(
    order: {
      productTitle: string
      orderId: string
      entryId: string
      closesAt: string
      holdCents: number
      commitment: string
      round: number
      proofUrl: string
    } & SlotChoiceDetails
  ): RenderedEmail {
    return layout(
      `You are in the draw for ${order.productTitle}`,
      [
        `Order ${order.orderId}: you are in the draw. Entries close ${order.closesAt}.`,
        ...slotChoiceLines(order),
        'The winners are drawn after entries close, from public randomness nobody can know in advance, not even us. Winners are checked out on release day; everyone else is never charged.',
        `We place a ${dollars(order.holdCents)} check on your card on file to verify it. ${CARD_WORDS.check} ${CARD_WORDS.fee}`,
        `To verify the draw yourself, keep this e-mail. Your entry id: ${order.entryId}. The draw's commitment, fixed before anyone entered: ${order.commitment}. It fixes the seed's SHA-256, the number of slots, the entry window and the public randomness the winners come from: drand quicknet round ${order.round}, published after entries close. With them the proof page checks that your entry is in the list and that the winners follow the rule.`,
      ],
      { label: 'Check the draw', url: order.proofUrl }
    )
  },

  drawWon(order: { productTitle: string; orderId: string; entryId: string }): RenderedEmail {
    return layout(`You won a slot for ${order.productTitle}`, [
      `Entry ${order.entryId} was drawn. Order ${order.orderId} is now pending: we check the item out for you on release day.`,
      'The service fee is charged only if the retailer confirms your order. A failed order costs nothing.',
    ])
  },

  drawPromoted(order: { productTitle: string; orderId: string; entryId: string }): RenderedEmail {
    return layout(`A slot for ${order.productTitle} is yours after all`, [
      `A winner of the draw dropped out, and entry ${order.entryId} is the next alternate in the draw's published order. Order ${order.orderId} is now pending: we check the item out for you on release day.`,
      `We place a new $1.00 check on your card on file to verify it. ${CARD_WORDS.check} ${CARD_WORDS.fee}`,
    ])
  },

  drawNotSelected(order: {
    productTitle: string
    orderId: string
    entryId: string
  }): RenderedEmail {
    return layout(`Not selected for ${order.productTitle}`, [
      `Entry ${order.entryId} was not selected in the draw. Order ${order.orderId} is closed: nothing was charged and the $1.00 check on your card on file is released.`,
      "The product page shows the draw's proof: the commitment, the public randomness it used, the seed and every entry id, so you can check the result yourself.",
    ])
  },

  holdDeclined(order: { productTitle: string; orderId: string; reason: string }): RenderedEmail {
    return layout(`We could not verify your card for ${order.productTitle}`, [
      `Order ${order.orderId} was cancelled because the $1.00 card check was declined: ${order.reason}`,
      'Nothing was charged and your slot was released. Update the card on file in your account and check out again while slots last.',
    ])
  },

  holdNeedsConfirmation(order: {
    productTitle: string
    orderId: string
    confirmBy: string
    ordersUrl: string
  }): RenderedEmail {
    return layout(
      `Confirm the card check for ${order.productTitle}`,
      [
        `Your bank asks you to confirm the $1.00 card check of order ${order.orderId} (3-D Secure). Your slot is kept for you until ${order.confirmBy}.`,
        'Open your orders and press Confirm card check. If it is not confirmed by then, the order is cancelled and nothing is charged.',
      ],
      { label: 'Confirm card check', url: order.ordersUrl }
    )
  },

  feeDeclined(order: {
    productTitle: string
    orderId: string
    amountCents: number
    reason: string
  }): RenderedEmail {
    return layout(`Payment problem with your ${order.productTitle} order`, [
      `Good news: order ${order.orderId} succeeded. We could not charge the ${dollars(order.amountCents)} service fee: ${order.reason}`,
      'Please update the card on file in your account; we will try again.',
    ])
  },

  orderSecured(order: {
    productTitle: string
    orderId: string
    size: string
    style: string
    /** The retailer's display name where the slot was won, when the order names one. */
    retailer: string | null
    confirmationNumber: string | null
    feeCents: number
  }): RenderedEmail {
    const where = order.retailer ? ` at ${order.retailer}` : ''
    return layout(`You got it: ${order.productTitle}`, [
      `We checked out order ${order.orderId} for you${where}: ${order.productTitle}, size ${order.size.toUpperCase()}, style ${order.style}.`,
      order.confirmationNumber
        ? `Retailer confirmation number: ${order.confirmationNumber}. The retailer ships the item and sends tracking to your profile's e-mail.`
        : "The retailer ships the item and sends tracking to your profile's e-mail.",
      order.feeCents > 0
        ? `Our service fee of ${dollars(order.feeCents)} was charged to your card on file. The $1.00 card check was released.`
        : 'There is no service fee for this order. The $1.00 card check was released.',
    ])
  },

  /**
   * `reason` is the customer-facing sentence (never the engine's own text); `notSecured` the
   * words the orders page shows (`notSecuredWords`).
   */
  orderFailed(order: {
    productTitle: string
    orderId: string
    reason: string
    notSecured: string
  }): RenderedEmail {
    return layout(`We could not get ${order.productTitle} this time`, [
      `Order ${order.orderId} did not go through: ${order.reason}`,
      `${order.notSecured} Your orders page says the same.`,
    ])
  },

  orderCorrected(order: {
    productTitle: string
    orderId: string
    reason: string
    refundedCents: number
    notSecured: string
  }): RenderedEmail {
    return layout(`An update on your ${order.productTitle} order`, [
      `We told you order ${order.orderId} succeeded, but it did not go through after all: ${order.reason}`,
      order.refundedCents > 0
        ? `We refunded the ${dollars(order.refundedCents)} service fee to your card; it can take 5-10 days to show. The order now shows as Refunded.`
        : `${order.notSecured} Your orders page says the same.`,
    ])
  },

  latePaymentRefunded(order: {
    productTitle: string
    orderId: string
    amountCents: number
  }): RenderedEmail {
    return layout(`A charge on your ${order.productTitle} order was refunded`, [
      `A charge of ${dollars(order.amountCents)} for order ${order.orderId} went through at our payment provider after the order no longer owed it (its fee was waived, refunded or corrected, or it had been charged already).`,
      `We refunded all ${dollars(order.amountCents)} of it to your card automatically. You owe nothing for it; the refund can take 5-10 days to show on your statement.`,
    ])
  },

  feeRefunded(order: {
    productTitle: string
    orderId: string
    amountCents: number
    totalRefundedCents: number
    feeCents: number
  }): RenderedEmail {
    const full = order.totalRefundedCents >= order.feeCents
    return layout(`Refund for your ${order.productTitle} order`, [
      `We refunded ${dollars(order.amountCents)} of the service fee of order ${order.orderId} to your card.`,
      full
        ? 'The whole service fee has now been refunded.'
        : `In all, ${dollars(order.totalRefundedCents)} of the ${dollars(order.feeCents)} fee has been refunded.`,
      'Refunds can take 5-10 days to show on your statement.',
    ])
  },

  retailerCancelled(order: {
    productTitle: string
    orderId: string
    refundedCents: number
  }): RenderedEmail {
    return layout(`The retailer cancelled your ${order.productTitle} order`, [
      `The retailer told us it cancelled order ${order.orderId} after confirming it.`,
      order.refundedCents > 0
        ? `We refunded the whole service fee (${dollars(order.refundedCents)}) to your card; refunds can take 5-10 days to show on your statement.`
        : 'You owe us no service fee for it.',
    ])
  },

  /** A second retailer confirmed an order already won elsewhere: no second fee; keep or cancel. */
  extraSuccess(order: {
    productTitle: string
    orderId: string
    wonAt: string | null
    retailer: string
    size: string | null
    confirmationNumber: string | null
  }): RenderedEmail {
    const size = order.size ? ` in size ${order.size.toUpperCase()}` : ''
    const number = order.confirmationNumber
      ? ` (its confirmation: ${order.confirmationNumber})`
      : ''
    return layout(`${order.retailer} also confirmed your ${order.productTitle}`, [
      `Order ${order.orderId} was already secured${order.wonAt ? ` at ${order.wonAt}` : ''}, and ${order.retailer} has now confirmed a second order${size}${number}.`,
      'You pay our service fee once: nothing more is charged for the second pair.',
      `If you want only one, cancel the ${order.retailer} order with ${order.retailer} (its confirmation e-mail to your profile's address says how); if you keep it, ${order.retailer} charges your profile's card for it.`,
    ])
  },

  feeWaived(order: { productTitle: string; orderId: string; amountCents: number }): RenderedEmail {
    return layout(`No fee for your ${order.productTitle} order`, [
      `We have waived the ${dollars(order.amountCents)} service fee of order ${order.orderId}: you owe us nothing for it, and we will not try your card again.`,
    ])
  },

  orderRetried(order: { productTitle: string; orderId: string; holdCents: number }): RenderedEmail {
    return layout(`We are trying again for ${order.productTitle}`, [
      `Order ${order.orderId} did not go through the first time; we are trying to check it out for you again.`,
      `We place a new ${dollars(order.holdCents)} check on your card on file to verify it. ${CARD_WORDS.check} ${CARD_WORDS.fee}`,
    ])
  },

  /** To ALERT_EMAIL: an incident opened (docs/operations.md). */
  incidentOpened(incident: {
    title: string
    detail: string | null
    rule: string
    openedAt: string
    consoleUrl: string
  }): RenderedEmail {
    return layout(
      `[Dropslot alert] ${incident.title}`,
      [
        incident.detail || incident.title,
        `Rule ${incident.rule}, open since ${incident.openedAt}. You will get one more e-mail when it resolves.`,
      ],
      { label: 'Open the incident', url: incident.consoleUrl }
    )
  },

  /** To ALERT_EMAIL: an incident resolved. */
  incidentResolved(incident: {
    title: string
    rule: string
    openedAt: string
    resolvedAt: string
    consoleUrl: string
  }): RenderedEmail {
    return layout(
      `[Dropslot resolved] ${incident.title}`,
      [
        `Resolved at ${incident.resolvedAt}: the condition of rule ${incident.rule} no longer holds (open since ${incident.openedAt}).`,
      ],
      { label: 'Open the incident', url: incident.consoleUrl }
    )
  },
}

/** A resent copy of a message: same content, clearly marked, so support can tell them apart. */
export function markAsResend(message: RenderedEmail): RenderedEmail {
  const note = "This is a copy of an earlier message, sent again at your or our support's request."
  return {
    subject: `[Resent] ${message.subject}`,
    text: `${note}\n\n${message.text}`,
    html: message.html
      .replace('<body', `<body data-resent="true"`)
      .replace(/(<body[^>]*>)/, `$1<p style="color:#555;font-size:13px">${note}</p>`),
  }
}

function dollars(cents: number) {
  return formatCents(cents)
}
