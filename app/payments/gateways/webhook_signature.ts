import Stripe from 'stripe'
import { WebhookSignatureError, type GatewayEvent } from '#payments/gateways/payment_gateway'

/**
 * Stripe's webhook scheme (`Stripe-Signature: t=...,v1=hmac_sha256(secret, t + '.' + body)`),
 * checked over the exact raw body with a timestamp tolerance against replays, both ways: Stripe's
 * library refuses only old signatures, so one dated in the future is refused here. The sandbox
 * signs its events the same way, so one code path verifies both.
 */
export function verifyStripeStyleWebhook(
  rawBody: string,
  signature: string | undefined,
  secret: string,
  toleranceSeconds: number
): GatewayEvent {
  if (!secret) throw new WebhookSignatureError('Webhook secret is not configured.')
  if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header.')
  let event: Stripe.Event
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, toleranceSeconds)
  } catch {
    throw new WebhookSignatureError('Invalid webhook signature.')
  }
  const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1])
  if (!Number.isFinite(timestamp) || timestamp - Date.now() / 1000 > toleranceSeconds) {
    throw new WebhookSignatureError('Invalid webhook signature.')
  }
  const object = (event as unknown as { data?: { object?: Record<string, any> } }).data?.object
  if (!event.id || !event.type || !object) {
    throw new WebhookSignatureError('Malformed webhook event.')
  }
  return { id: event.id, type: event.type, created: event.created, object }
}

/** Signs a payload as the provider does (tests and the sandbox's own event deliveries). */
export function signStripeStyleWebhook(payload: string, secret: string, timestamp?: number) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })
}
