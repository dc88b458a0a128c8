import paymentsConfig from '#config/payments'
import db from '@adonisjs/lucid/services/db'
import { sqlTime } from '#core/helpers/sql_time'
import { clock } from '#core/services/clock'
import { signChallengePass } from '#payments/gateways/sandbox_challenge_tokens'
import {
  awaitsAuthentication,
  captureBeforeFrom,
  insertPaymentMethod,
  lapseExpiredHold,
  PAYMENT_ID,
  STRIPE_MESSAGES,
} from '#payments/gateways/sandbox/records'

/** The sandbox's 3-D Secure challenge page (served by this app, sandbox only), without its pass. */
export const sandboxChallengePath = (id: string) => `/sandbox/3ds/${id}`

/**
 * The challenge page's address for its customer: the page and a signed, short-lived pass bound
 * to this setup or payment and its customer (`sandbox_challenge_tokens.ts`), keyed by this
 * install's sandbox secret.
 */
export function sandboxChallengeUrl(sandboxSecret: string, id: string, customerId: string) {
  const pass = signChallengePass(sandboxSecret, id, customerId, clock.nowMs())
  return `${sandboxChallengePath(id)}?t=${pass}`
}

export type SandboxChallenge = {
  kind?: 'setup' | 'payment'
  amountCents?: number
  id: string
  /** The customer at the gateway whose setup or payment it is (the pass is bound to them). */
  customerId: string
  status: 'requires_action' | 'succeeded' | 'failed'
  brand: string
  last4: string
}

async function findPaymentChallenge(id: string): Promise<SandboxChallenge | null> {
  await lapseExpiredHold(db, id)
  const intent = await db.from('sandbox_payment_intents').where('id', id).first()
  if (!intent) return null
  const method = await db
    .from('sandbox_payment_methods')
    .where('id', intent.payment_method_id)
    .first()
  return {
    id: String(intent.id),
    customerId: String(intent.customer_id),
    kind: 'payment',
    amountCents: Number(intent.amount),
    status: awaitsAuthentication(intent)
      ? 'requires_action'
      : ['requires_capture', 'succeeded'].includes(intent.status)
        ? 'succeeded'
        : 'failed',
    brand: String(method?.brand ?? 'card'),
    last4: String(method?.last4 ?? '····'),
  }
}

/**
 * The customer's answer for a payment: authenticated, it goes through (a hold awaits capture);
 * failed, it stays waiting with the failure recorded, as Stripe lets the customer try again.
 */
async function answerPaymentChallenge(
  id: string,
  authenticated: boolean,
  holdExpiryHours = paymentsConfig.sandbox.holdExpiryHours
) {
  await db.transaction(async (trx) => {
    const intent = await trx.from('sandbox_payment_intents').where('id', id).forUpdate().first()
    if (!intent || !awaitsAuthentication(intent)) return
    await trx
      .from('sandbox_payment_intents')
      .where('id', id)
      .update(
        authenticated
          ? {
              status: intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded',
              capture_before:
                intent.capture_method === 'manual' ? captureBeforeFrom(holdExpiryHours) : null,
              last_error_code: null,
              last_decline_code: null,
              last_error_message: null,
              updated_at: sqlTime(),
            }
          : {
              last_error_code: 'payment_intent_authentication_failure',
              last_decline_code: null,
              last_error_message: STRIPE_MESSAGES.payment_intent_authentication_failure,
              updated_at: sqlTime(),
            }
      )
  })
  const challenge = await findPaymentChallenge(id)
  // A failed answer is shown as failed, even though the customer may try again later.
  if (challenge && !authenticated && challenge.status === 'requires_action') {
    return { ...challenge, status: 'failed' as const }
  }
  return challenge
}

/**
 * The customer's side of the sandbox's 3-D Secure stand-in (the challenge page): what is being
 * authenticated, and the customer's answer. Completing a setup attaches the card to the
 * customer (the setup succeeds); failing it leaves no usable card. Answering twice changes nothing.
 */
export const sandboxChallenges = {
  async find(id: string): Promise<SandboxChallenge | null> {
    if (PAYMENT_ID.test(id)) return findPaymentChallenge(id)
    if (!/^seti_sbx_[0-9a-f]{24}$/.test(id)) return null
    const setup = await db.from('sandbox_setup_intents').where('id', id).first()
    if (!setup) return null
    return {
      id: String(setup.id),
      customerId: String(setup.customer_id),
      status:
        setup.status === 'requires_action' || setup.status === 'succeeded'
          ? setup.status
          : 'failed',
      brand: String(setup.brand),
      last4: String(setup.last4),
    }
  },

  async answer(id: string, authenticated: boolean): Promise<SandboxChallenge | null> {
    if (PAYMENT_ID.test(id)) return answerPaymentChallenge(id, authenticated)
    if (!/^seti_sbx_[0-9a-f]{24}$/.test(id)) return null
    await db.transaction(async (trx) => {
      const setup = await trx.from('sandbox_setup_intents').where('id', id).forUpdate().first()
      if (!setup || setup.status !== 'requires_action') return
      if (!authenticated) {
        await trx.from('sandbox_setup_intents').where('id', id).update({
          status: 'requires_payment_method',
          last_error_code: 'setup_intent_authentication_failure',
          updated_at: sqlTime(),
        })
        return
      }
      const paymentMethodId = await insertPaymentMethod(
        trx,
        String(setup.customer_id),
        {
          brand: String(setup.brand),
          last4: String(setup.last4),
          expMonth: Number(setup.exp_month),
          expYear: Number(setup.exp_year),
          fingerprint: setup.fingerprint ? String(setup.fingerprint) : null,
        },
        String(setup.behaviour)
      )
      await trx.from('sandbox_setup_intents').where('id', id).update({
        status: 'succeeded',
        payment_method_id: paymentMethodId,
        updated_at: sqlTime(),
      })
    })
    return this.find(id)
  },
}
