import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/lucid'
import { cachePreparedStatements } from '#core/helpers/sqlite_statements'
import { walCheckpoints } from '#core/services/wal_checkpoints'

const migrations = { naturalSort: true, paths: ['database/migrations'] }

export const sqliteFile =
  env.get('SQLITE_PATH') || app.tmpPath(app.inTest ? 'test.sqlite3' : 'dropslot.sqlite3')
// tmp/ is not in git: a fresh clone must still be able to open the embedded database.
mkdirSync(dirname(sqliteFile), { recursive: true })

/**
 * The web process checkpoints the embedded database's log from a thread of its own this often
 * (ms); 0 leaves checkpoints to the writing connection, as SQLite does by default.
 */
export const sqliteCheckpointEveryMs = env.get('SQLITE_CHECKPOINT_EVERY_MS', 100)
if (!Number.isInteger(sqliteCheckpointEveryMs) || sqliteCheckpointEveryMs < 0) {
  throw new Error('SQLITE_CHECKPOINT_EVERY_MS must be a whole number of milliseconds, 0 or more.')
}

const dbConfig = defineConfig({
  connection: env.get('DB_CONNECTION', 'sqlite'),
  prettyPrintDebugQueries: false,
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: sqliteFile },
      useNullAsDefault: true,
      pool: {
        afterCreate: (connection: any, done: (error: Error | null, connection: any) => void) => {
          connection.pragma('journal_mode = WAL')
          connection.pragma('foreign_keys = ON')
          connection.pragma('busy_timeout = 5000')
          connection.pragma('synchronous = NORMAL')
          connection.pragma(`wal_autocheckpoint = ${walCheckpoints.writerPages}`)
          cachePreparedStatements(connection)
          done(null, connection)
        },
      },
      migrations,
    },
    mysql: {
      client: 'mysql2',
      connection: {
        host: env.get('MYSQL_HOST', '127.0.0.1'),
        port: env.get('MYSQL_PORT', 3306),
        user: env.get('MYSQL_USER', 'root'),
        password: env.get('MYSQL_PASSWORD', ''),
        database: env.get('MYSQL_DB_NAME', app.inTest ? 'dropslot_test' : 'dropslot'),
        timezone: 'Z',
        charset: 'utf8mb4',
      },
      pool: { min: 0, max: env.get('DB_POOL_MAX', 10) },
      migrations,
    },
  },
})

export default dbConfig
