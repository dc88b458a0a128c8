import type { HttpContext } from '@adonisjs/core/http'
import paymentsConfig from '#config/payments'
import { clock } from '#core/services/clock'
import { sandboxChallenges, type SandboxChallenge } from '#payments/gateways/sandbox_gateway'
import { verifyChallengePass } from '#payments/gateways/sandbox_challenge_tokens'

/**
 * The sandbox's stand-in for a bank's 3-D Secure page (mounted only when the sandbox gateway is
 * in use): the customer completes or fails the authentication of a card being saved or of a
 * $1.00 card check, and is sent back to the storefront page they came from with
 * `setup_intent=<id>` or `payment_intent=<id>`, as Stripe's redirect does. The page is opened by
 * a redirect, so it cannot see the customer's bearer token: its link carries a signed pass
 * (`?t=`), bound to the setup or payment and its customer and valid 30 minutes, that only the
 * customer was handed. Without it (another customer, a visitor, an old link) the page is a 403
 * and nothing changes.
 */
export default class SandboxChallengesController {
  /** GET /sandbox/3ds/:id?t=<pass>&return_to=/path */
  async show({ params, request, response }: HttpContext) {
    const challenge = await sandboxChallenges.find(String(params.id))
    if (!challenge) return response.status(404).type('html').send(page(notFound()))
    const pass = request.input('t')
    if (!allowed(challenge, pass)) return response.status(403).type('html').send(page(notYours()))
    const returnTo = safeReturnPath(request.input('return_to'))
    return response.type('html').send(page(challengeForm(challenge, returnTo, String(pass))))
  }

  /** POST /sandbox/3ds/:id?t=<pass> {answer: complete|fail, return_to} */
  async answer({ params, request, response }: HttpContext) {
    const found = await sandboxChallenges.find(String(params.id))
    if (!found) return response.status(404).type('html').send(page(notFound()))
    if (!allowed(found, request.input('t'))) {
      return response.status(403).type('html').send(page(notYours()))
    }
    const answer = request.input('answer')
    if (answer !== 'complete' && answer !== 'fail') {
      return response.status(422).type('html').send(page(notAnswered()))
    }
    const challenge = await sandboxChallenges.answer(found.id, answer === 'complete')
    if (!challenge) return response.status(404).type('html').send(page(notFound()))
    const returnTo = safeReturnPath(request.input('return_to'))
    if (!returnTo) return response.type('html').send(page(answered(challenge)))
    const separator = returnTo.includes('?') ? '&' : '?'
    // The parameter Stripe's own redirect uses for the kind of object that was authenticated.
    const param = challenge.kind === 'payment' ? 'payment_intent' : 'setup_intent'
    return response.redirect().status(303).toPath(`${returnTo}${separator}${param}=${challenge.id}`)
  }
}

/** The pass of this challenge's customer, not expired on the product's clock. */
function allowed(challenge: SandboxChallenge, pass: unknown) {
  return verifyChallengePass(
    paymentsConfig.sandbox.webhookSecret,
    pass,
    challenge.id,
    challenge.customerId,
    clock.nowMs()
  )
}

/** Only a path on this site (never `//host` or a full URL): no open redirect. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 500) return null
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null
  if ([...value].some((char) => char.charCodeAt(0) < 0x20)) return null
  return value
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function challengeForm(challenge: SandboxChallenge, returnTo: string | null, pass: string) {
  const hidden = returnTo
    ? `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">`
    : ''
  const card = `${escapeHtml(challenge.brand.toUpperCase())} ending in ${escapeHtml(challenge.last4)}`
  if (challenge.status !== 'requires_action') {
    return `<h1>Authentication already answered</h1>
<p>This card (${card}) was ${challenge.status === 'succeeded' ? 'authenticated' : 'not authenticated'}.</p>
${returnTo ? `<p><a href="${escapeHtml(returnTo)}">Back to Dropslot</a></p>` : ''}`
  }
  const action = `/sandbox/3ds/${escapeHtml(challenge.id)}?t=${encodeURIComponent(pass)}`
  return `<p class="badge">Test mode: sandbox stand-in for 3-D Secure</p>
<h1>Confirm your card</h1>
<p>${
    challenge.kind === 'payment'
      ? `Your bank asks you to confirm the $${((challenge.amountCents ?? 0) / 100).toFixed(2)} card check on <strong>${card}</strong>.`
      : `Your bank asks you to confirm the card <strong>${card}</strong> before it is saved.`
  }</p>
<p class="muted">This page stands in for your bank's 3-D Secure check while Dropslot runs on its
sandbox payment gateway. No bank is contacted and no money moves.</p>
<form method="post" action="${action}">
  ${hidden}
  <button type="submit" name="answer" value="complete" class="primary">Complete authentication</button>
  <button type="submit" name="answer" value="fail" class="secondary">Fail authentication</button>
</form>`
}

function answered(challenge: SandboxChallenge) {
  return `<h1>${challenge.status === 'succeeded' ? 'Card authenticated' : 'Authentication failed'}</h1>
<p>You can close this page and go back to Dropslot.</p>`
}

function notFound() {
  return `<h1>No such authentication</h1>
<p>This link is not valid any more. Go back to Dropslot and add your card again.</p>`
}

function notYours() {
  return `<h1>This check is not open to you</h1>
<p>This link works only for the customer who started the check, and only for 30 minutes. Go
back to Dropslot, sign in and start the check again.</p>`
}

function notAnswered() {
  return `<h1>Choose an answer</h1><p>Go back and press one of the two buttons.</p>`
}

function page(body: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Confirm your card (sandbox 3-D Secure)</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 24px 16px; color: #111; background: #f6f6f6; }
  main { max-width: 420px; margin: 0 auto; background: #fff; border-radius: 8px; padding: 24px; }
  h1 { font-size: 1.4rem; margin: 0 0 12px; }
  .badge { display: inline-block; background: #fff3cd; color: #5c4400; border: 1px solid #e0c46c; border-radius: 4px; padding: 4px 8px; font-size: .85rem; margin: 0 0 16px; }
  .muted { color: #444; font-size: .9rem; }
  form { display: flex; flex-direction: column; gap: 12px; margin-top: 20px; }
  button { font: inherit; padding: 12px 16px; border-radius: 6px; cursor: pointer; min-height: 44px; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
  .primary { background: #111; color: #fff; border: 1px solid #111; }
  .secondary { background: #fff; color: #111; border: 1px solid #767676; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>`
}
