import dropslotConfig from '#config/dropslot'

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
}
