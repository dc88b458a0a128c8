import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { sqlTime } from '#core/helpers/sql_time'
import {
  CardDeclinedError,
  GatewayRequestError,
  type CardSetupAction,
  type SavedCard,
} from '#payments/gateways/payment_gateway'
import type { SandboxContext } from '#payments/gateways/sandbox/context'
import { sandboxChallengePath, sandboxChallengeUrl } from '#payments/gateways/sandbox/challenges'
import { newId, STRIPE_MESSAGES, type SandboxCard } from '#payments/gateways/sandbox/records'

function presentSetupAction(setup: { id: string; customer_id: string }): CardSetupAction {
  return {
    status: 'requires_action',
    setupId: String(setup.id),
    customerId: String(setup.customer_id),
    clientSecret: null,
    challengeUrl: sandboxChallengePath(String(setup.id)),
  }
}

/** Cards saved only once their customer authenticated them (3-D Secure), like SetupIntents. */
export class SandboxSetupIntents {
  constructor(private sandbox: SandboxContext) {}

  async create(
    trx: TransactionClientContract,
    customerId: string,
    card: SandboxCard,
    behaviour: string
  ): Promise<CardSetupAction> {
    const setup = {
      id: newId('seti'),
      customer_id: customerId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: card.fingerprint,
      // Once authenticated, a 3155 card pays off-session; a 3184 card still asks every time.
      behaviour: behaviour === 'auth_setup' ? 'ok' : behaviour,
      status: 'requires_action',
      payment_method_id: null,
      last_error_code: null,
      created_at: sqlTime(),
      updated_at: sqlTime(),
    }
    await trx.table('sandbox_setup_intents').insert(setup)
    return presentSetupAction(setup)
  }

  /** The action with the challenge link its customer may open now. */
  withPass(action: CardSetupAction): CardSetupAction {
    return {
      ...action,
      challengeUrl: sandboxChallengeUrl(
        this.sandbox.options.webhookSecret,
        action.setupId,
        action.customerId
      ),
    }
  }

  /** A card saved after the customer's authentication: read back, like a SetupIntent. */
  async confirmCardSetup(input: {
    setupId: string
    customerId: string
    idempotencyKey: string
  }): Promise<SavedCard | CardSetupAction> {
    await this.sandbox.enter()
    const setup = await db.from('sandbox_setup_intents').where('id', input.setupId).first()
    if (!setup || setup.customer_id !== input.customerId) {
      throw new GatewayRequestError('resource_missing', 'No such setup_intent.')
    }
    if (setup.status === 'requires_action') return this.withPass(presentSetupAction(setup))
    if (setup.status !== 'succeeded' || !setup.payment_method_id) {
      throw new CardDeclinedError(
        setup.last_error_code ?? 'setup_intent_authentication_failure',
        null,
        STRIPE_MESSAGES.setup_intent_authentication_failure
      )
    }
    return {
      customerId: String(setup.customer_id),
      paymentMethodId: String(setup.payment_method_id),
      brand: String(setup.brand),
      last4: String(setup.last4),
      expMonth: Number(setup.exp_month),
      expYear: Number(setup.exp_year),
      fingerprint: setup.fingerprint ? String(setup.fingerprint) : null,
    }
  }
}
