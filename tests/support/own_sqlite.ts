import env from '#start/env'

/*
| Tests that start processes on a SQLite database of their own, with an environment of their
| own, do the same work whichever database the suite runs on: they run once, in the SQLite
| suite, and the MariaDB suite skips them.
*/
export const SUITE_ON_MARIADB = env.get('DB_CONNECTION', 'sqlite') === 'mysql'
export const RUNS_IN_THE_SQLITE_SUITE =
  'the same on both databases (it runs on a SQLite database of its own): in the SQLite suite'
