import { Redis, type RedisOptions } from 'ioredis'
import type { Serializable, SubscribeHandler, Transport } from '@boringnode/bus/types/main'
import logger from '@adonisjs/core/services/logger'
import { reconnectDelay } from '#config/redis'
import { outageReporter } from '#core/helpers/redis_errors'

type Envelope = { busId: string; payload: unknown }

/**
 * The live updates' Redis pub/sub between processes (a Transport of @boringnode/bus, which
 * transmit syncs its broadcasts through), in place of the package's own Redis transport. That one
 * opened both connections with ioredis's defaults: no `error` listener (ioredis printed every
 * failed attempt to stderr), and a SUBSCRIBE that failed after 20 attempts was thrown from a
 * callback, so with Redis down for ten seconds at start a web process, a worker or a CLI command
 * (the provider builds transmit again at shutdown) crashed with MaxRetriesPerRequestError.
 *
 * Here both connections reconnect for ever (`reconnectDelay`). The subscription waits for Redis
 * however long it is away and ioredis renews it on every reconnection; a publish fails after two
 * attempts, and the bus keeps it in its retry queue and sends it once the publisher is back. An
 * outage is logged once as a warning, its end once.
 */
export class LiveUpdatesTransport implements Transport {
  private busId = ''
  private readonly publisher: Redis
  private readonly subscriber: Redis
  private closing = false
  private readonly outage = outageReporter({
    down: (error) => {
      const { host, port } = this.publisher.options
      logger.warn(
        `Live updates: Redis at ${host}:${port} is not reachable (${error.message}); ` +
          'retrying. Until it is, changes made in another process reach no open page.'
      )
    },
    up: () => logger.info('Live updates: Redis is reachable again.'),
  })

  constructor(options: RedisOptions) {
    const common = { ...options, lazyConnect: true, retryStrategy: reconnectDelay }
    this.publisher = new Redis({ ...common, maxRetriesPerRequest: 2 })
    this.subscriber = new Redis({ ...common, maxRetriesPerRequest: null })
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error: Error) => this.down(error))
      connection.on('ready', () => this.outage.up())
    }
  }

  setId(id: string) {
    this.busId = id
    return this
  }

  /** Called once the publisher can send again: the bus then sends what it kept meanwhile. */
  onReconnect(callback: () => void) {
    this.publisher.on('ready', callback)
  }

  async publish(channel: string, message: Serializable) {
    const envelope: Envelope = { busId: this.busId, payload: message }
    await this.publisher.publish(channel, JSON.stringify(envelope))
  }

  async subscribe<T extends Serializable>(channel: string, handler: SubscribeHandler<T>) {
    this.subscriber.on('message', (received: string, text: string) => {
      if (received !== channel) return
      const envelope = parseEnvelope(text)
      if (!envelope || envelope.busId === this.busId) return
      handler(envelope.payload as T)
    })
    this.subscriber.subscribe(channel).catch((error: Error) => this.down(error))
  }

  async unsubscribe(channel: string) {
    if (this.subscriber.status === 'ready') await this.subscriber.unsubscribe(channel)
  }

  /** Quits what is connected; a connection still trying is dropped at once, not waited for. */
  async disconnect() {
    this.closing = true
    await Promise.all(
      [this.publisher, this.subscriber].map(async (connection) => {
        if (connection.status !== 'ready') return connection.disconnect()
        await connection.quit().catch(() => connection.disconnect())
      })
    )
  }

  /** An error while closing is the close itself, not an outage. */
  private down(error: Error) {
    if (!this.closing) this.outage.down(error)
  }
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as Partial<Envelope> | null
    return value && typeof value.busId === 'string' ? (value as Envelope) : null
  } catch {
    return null
  }
}
