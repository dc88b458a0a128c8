import env from '#start/env'

/*
| Checkout settings. The per-customer limit is generous (a person clicking fast is fine); the
| per-address limit stops one client hammering the slot counter with many accounts.
*/
const checkoutConfig = {
  rateLimits: {
    perCustomerPerMinute: env.get('RATE_LIMIT_CHECKOUT_PER_MINUTE', 30),
    perIpPerMinute: env.get('RATE_LIMIT_CHECKOUT_IP_PER_MINUTE', 1200),
  },
}

export default checkoutConfig
