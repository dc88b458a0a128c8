import { setTimeout as sleep } from 'node:timers/promises'
import { GatewayUnavailableError } from '#payments/gateways/payment_gateway'
import { countRateLimited } from '#payments/gateways/rate_limit_signal'
import type { SandboxGatewayOptions } from '#payments/gateways/sandbox/context'

/** The sandbox's request rate (429s past it) and latency, as a remote API has them. */
export class SandboxRateBudget {
  private tokens: number
  private refilledAt = Date.now()

  constructor(
    private options: Pick<SandboxGatewayOptions, 'latencyMs' | 'requestsPerSecond' | 'sharedBudget'>
  ) {
    this.tokens = options.requestsPerSecond
  }

  /**
   * The requests-per-second limit, counted when the request is sent, then the latency, before
   * any work, like a remote API.
   */
  async enter() {
    await this.admit()
    if (this.options.latencyMs > 0) await sleep(this.options.latencyMs)
  }

  private async admit() {
    if (this.options.sharedBudget) {
      const fits = await this.options.sharedBudget(this.options.requestsPerSecond).catch(() => {
        throw new GatewayUnavailableError(
          'api_connection_error',
          'The payment service could not be reached.'
        )
      })
      if (!fits) {
        countRateLimited('sandbox')
        throw new GatewayUnavailableError(
          'rate_limited',
          'Too many requests hit the API too quickly.'
        )
      }
      return
    }
    const now = Date.now()
    const rate = this.options.requestsPerSecond
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate)
    this.refilledAt = now
    if (this.tokens < 1) {
      countRateLimited('sandbox')
      throw new GatewayUnavailableError(
        'rate_limited',
        'Too many requests hit the API too quickly.'
      )
    }
    this.tokens -= 1
  }
}
