/*
| The demo customer's card on file (and its Home profile's): a sandbox test card that works, and
| not the README's 4242, which a newcomer saves when signing up: the demo customer's entry in the
| open draw would take it (one entry per card on file). No seeded account holds 4242.
*/
export const DEMO_CUSTOMER_CARD = '5555555555554444'

/** The same card as Stripe's test token, when the demo runs on Stripe's test mode. */
export const DEMO_CUSTOMER_STRIPE_TOKEN = 'tok_mastercard'
