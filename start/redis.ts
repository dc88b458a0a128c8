/*
| A Redis outage, logged as what it is: one warning when a connection loses Redis and one line when
| it has it back. @adonisjs/redis logged every failed reconnection attempt as `fatal` (several a
| second at first), though the process goes on and reconnects for ever (`config/redis.ts`).
*/
import logger from '@adonisjs/core/services/logger'
import redis from '@adonisjs/redis/services/main'
import { outageReporter } from '#core/helpers/redis_errors'

type Connection = ReturnType<typeof redis.connection>

function reportOutages(connection: Connection) {
  const name = String(connection.connectionName)
  const outage = outageReporter({
    down: (error) =>
      logger.warn(
        { err: error },
        `Redis (${name}) is not reachable; retrying. Locks, rate limits and the gateway budgets ` +
          'kept there fail until it is back.'
      ),
    up: () => logger.info(`Redis (${name}) is reachable again.`),
  })
  connection.on('error', ({ error }: { error: Error }) => outage.down(error))
  connection.on('ready', () => outage.up())
}

redis.doNotLogErrors()
for (const connection of Object.values(redis.activeConnections)) {
  if (connection) reportOutages(connection)
}
redis.on('connection', reportOutages)
