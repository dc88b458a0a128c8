/*
| What a test card does, following Stripe's documented test cards. Any other valid number works.
*/
type Behaviour =
  | 'ok'
  | 'decline_charges'
  | 'auth_required'
  | 'auth_setup'
  | `attach:${'card_declined' | 'expired_card' | 'incorrect_cvc' | 'processing_error'}:${string}`

export const SANDBOX_TEST_CARDS: Record<string, Behaviour> = {
  '4242424242424242': 'ok',
  '5555555555554444': 'ok',
  '4000002500003155': 'auth_setup', // authenticated when saved, then off-session payments succeed
  '4000000000000002': 'attach:card_declined:generic_decline',
  '4000000000009995': 'attach:card_declined:insufficient_funds',
  '4000000000009987': 'attach:card_declined:lost_card',
  '4000000000009979': 'attach:card_declined:stolen_card',
  '4000000000000069': 'attach:expired_card:expired_card',
  '4000000000000127': 'attach:incorrect_cvc:incorrect_cvc',
  '4000000000000119': 'attach:processing_error:processing_error',
  '4000000000000341': 'decline_charges', // attaching succeeds, every payment fails
  '4000002760003184': 'auth_required', // authenticated when saved, and every payment needs it too
}

/** Cards whose bank asks the customer to authenticate (3-D Secure) before they are saved. */
export const SETUP_NEEDS_AUTHENTICATION = new Set(['auth_setup', 'auth_required'])
