type Preparer = { prepare(sql: string): unknown }

/**
 * knex prepares every query anew on better-sqlite3, and preparing (parsing and planning the SQL)
 * was an eighth of the checkout's CPU on the embedded database. The connection keeps its most
 * recently used statements instead, keyed by their SQL; better-sqlite3 re-prepares one by itself
 * if the schema changes under it.
 */
export function cachePreparedStatements(connection: Preparer, size = 500) {
  const prepare = connection.prepare.bind(connection)
  const statements = new Map<string, unknown>()
  connection.prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (statement) {
      statements.delete(sql)
    } else {
      statement = prepare(sql)
      if (statements.size >= size) statements.delete(statements.keys().next().value!)
    }
    statements.set(sql, statement)
    return statement
  }
}
