/*
| A Redis outage, logged as what it is: one warning when a connection loses Redis and one line when
| it has it back. @adonisjs/redis logged every failed reconnection attempt as `fatal` (several a
| second at first), though the process goes on and reconnects for ever (`config/redis.ts`).
*/
import logger from '@adonisjs/core/services/logger'
import redis from '@adonisjs/redis/services/main'

type Connection = ReturnType<typeof redis.connection>

function reportOutages(connection: Connection) {
  let unreachable = false
  connection.on('error', ({ error }: { error: Error }) => {
    if (unreachable) return
    unreachable = true
    logger.warn(
      { err: error },
      `Redis (${String(connection.connectionName)}) is not reachable; retrying. Locks, rate limits ` +
        'and the gateway budgets kept there fail until it is back.'
    )
  })
  connection.on('ready', () => {
    if (!unreachable) return
    unreachable = false
    logger.info(`Redis (${String(connection.connectionName)}) is reachable again.`)
  })
}

redis.doNotLogErrors()
for (const connection of Object.values(redis.activeConnections)) {
  if (connection) reportOutages(connection)
}
redis.on('connection', reportOutages)
