import db from '@adonisjs/lucid/services/db'

export type Binding = string | number | null
export type RunResult = { changes: number; insertId: number }

/**
 * SQL straight on the database driver, for the paths that have to keep up with a release-day
 * rush (the checkout and its receipt, the token check of every API call): no query builder, no
 * model, no knex transaction object. Those cost two to four times the driver's own CPU per
 * statement, and on release day the app is bound by CPU (docs/performance.md). Everything else
 * uses Lucid.
 *
 * The connection is Lucid's own: taken from its pool for the session and given back after, or,
 * when a global transaction is open (the tests), that transaction's connection, with sessions
 * queued one after another and `transaction` as a savepoint, so the test's rollback undoes them.
 * Never open a session inside another: SQLite's pool has one connection, so the inner one would
 * wait for ever. Pass the open session down instead (as `notifications.send` takes it).
 */
export interface DriverSession {
  readonly dialect: 'mysql' | 'sqlite'
  /** True on a global transaction's connection (the tests): `transaction` is a savepoint. */
  readonly insideTransaction: boolean
  /** The first row of a SELECT, or null. */
  first<T>(sql: string, bindings?: Binding[]): Promise<T | null>
  run(sql: string, bindings?: Binding[]): Promise<RunResult>
  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: () => Promise<T>): Promise<T>
  /** MariaDB/MySQL only: the first row of a stored procedure's first result set, or null. */
  call<T>(procedure: string, bindings: Binding[]): Promise<T | null>
}

type Callback = (error: Error | null, result: any) => void
type MysqlConnection = {
  query(sql: string, bindings: Binding[], callback: Callback): void
  execute(sql: string, bindings: Binding[], callback: Callback): void
  destroy(): void
}
type SqliteStatement = { get(...bindings: Binding[]): unknown; run(...bindings: Binding[]): any }
type SqliteDatabase = { prepare(sql: string): SqliteStatement }

const TRANSACTION = { begin: 'BEGIN', commit: 'COMMIT', rollback: 'ROLLBACK' }
const SAVEPOINT = {
  begin: 'SAVEPOINT driver_session',
  commit: 'RELEASE SAVEPOINT driver_session',
  rollback: 'ROLLBACK TO SAVEPOINT driver_session',
}

abstract class Session implements DriverSession {
  abstract readonly dialect: DriverSession['dialect']
  constructor(readonly insideTransaction: boolean) {}
  abstract first<T>(sql: string, bindings?: Binding[]): Promise<T | null>
  abstract run(sql: string, bindings?: Binding[]): Promise<RunResult>
  abstract call<T>(procedure: string, bindings: Binding[]): Promise<T | null>
  protected abstract discard(): void

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const statements = this.insideTransaction ? SAVEPOINT : this.beginStatements()
    await this.run(statements.begin)
    let result: T
    try {
      result = await work()
    } catch (error) {
      // A connection that cannot even roll back must never serve another request.
      await this.run(statements.rollback).catch(() => this.discard())
      throw error
    }
    await this.run(statements.commit)
    return result
  }

  protected beginStatements() {
    return TRANSACTION
  }
}

class MysqlSession extends Session {
  readonly dialect = 'mysql'

  constructor(
    private readonly connection: MysqlConnection,
    insideTransaction: boolean
  ) {
    super(insideTransaction)
  }

  private query(sql: string, bindings: Binding[]): Promise<any> {
    return new Promise((resolve, reject) => {
      const done: Callback = (error, result) => (error ? reject(error) : resolve(result))
      if (bindings.length) this.connection.execute(sql, bindings, done)
      else this.connection.query(sql, bindings, done)
    })
  }

  async first<T>(sql: string, bindings: Binding[] = []): Promise<T | null> {
    const rows = await this.query(sql, bindings)
    return rows[0] ?? null
  }

  async run(sql: string, bindings: Binding[] = []): Promise<RunResult> {
    const result = await this.query(sql, bindings)
    return { changes: result.affectedRows, insertId: Number(result.insertId) }
  }

  // A CALL answers with its result sets, then the status of the call itself.
  async call<T>(procedure: string, bindings: Binding[]): Promise<T | null> {
    const placeholders = bindings.map(() => '?').join(', ')
    const [rows] = await this.query(`CALL ${procedure}(${placeholders})`, bindings)
    return rows?.[0] ?? null
  }

  // A destroyed connection fails the pool's validation, so knex opens a new one instead.
  protected discard() {
    this.connection.destroy()
  }
}

/** better-sqlite3 is synchronous: a whole session runs without giving the event loop away. */
class SqliteSession extends Session {
  readonly dialect = 'sqlite'

  constructor(
    private readonly database: SqliteDatabase,
    insideTransaction: boolean
  ) {
    super(insideTransaction)
  }

  async first<T>(sql: string, bindings: Binding[] = []): Promise<T | null> {
    return (this.database.prepare(sql).get(...bindings) as T | undefined) ?? null
  }

  async run(sql: string, bindings: Binding[] = []): Promise<RunResult> {
    const result = this.database.prepare(sql).run(...bindings)
    return { changes: result.changes, insertId: Number(result.lastInsertRowid) }
  }

  async call<T>(procedure: string): Promise<T | null> {
    throw new Error(`SQLite has no stored procedures (${procedure})`)
  }

  // SQLite ends a transaction by itself after some errors; then there is nothing to roll back.
  protected discard() {}

  // Takes the write lock at once: another process (the operator CLI) writing between our read
  // and our write would otherwise make the COMMIT fail with SQLITE_BUSY.
  protected beginStatements() {
    return { ...TRANSACTION, begin: 'BEGIN IMMEDIATE' }
  }
}

/** Sessions on a global transaction's single connection, one after another (as knex does). */
const queued = new WeakMap<object, Promise<unknown>>()

export async function withDriverSession<T>(work: (session: DriverSession) => Promise<T>) {
  const client = db.connection()
  const knex = client.getWriteClient()
  const connection = await knex.client.acquireConnection()
  const session: DriverSession =
    client.dialect.name === 'mysql'
      ? new MysqlSession(connection, client.isTransaction)
      : new SqliteSession(connection, client.isTransaction)

  if (client.isTransaction) {
    // knex hands the transaction's own connection out and never takes it back.
    const previous = queued.get(connection) ?? Promise.resolve()
    const current = previous.then(() => work(session))
    queued.set(
      connection,
      current.catch(() => {})
    )
    return current
  }
  try {
    return await work(session)
  } finally {
    await knex.client.releaseConnection(connection)
  }
}
