import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  WalCheckpoints,
  WRITER_CHECKPOINT_PAGES,
  WRITER_CHECKPOINT_PAGES_WITH_THREAD,
} from '#core/services/wal_checkpoints'

type SqliteDatabase = {
  pragma(source: string): unknown
  exec(source: string): void
  prepare(source: string): { run(...values: unknown[]): unknown; get(): unknown }
  close(): void
}
// better-sqlite3 ships no types; the test needs these few calls.
const { default: Database } = (await import('better-sqlite3' as string)) as {
  default: new (file: string, options?: { readonly?: boolean }) => SqliteDatabase
}

/** A WAL database with a writer that leaves its log to the thread, as the web process's does. */
function writerOn(file: string) {
  const writer = new Database(file)
  writer.pragma('journal_mode = WAL')
  writer.pragma('synchronous = NORMAL')
  writer.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES_WITH_THREAD}`)
  writer.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body BLOB)')
  return writer
}

test.group('WAL checkpoints off the request thread', (group) => {
  let directory: string
  group.each.setup(() => {
    directory = mkdtempSync(join(tmpdir(), 'dropslot-wal-'))
    return () => rmSync(directory, { recursive: true, force: true })
  })

  test('the thread copies the pages the writer left in the log', async ({ assert, cleanup }) => {
    const file = join(directory, 'app.sqlite3')
    const writer = writerOn(file)
    const checkpoints = new WalCheckpoints()
    const problems: string[] = []
    // A timer that never fires within the test: the checkpoint is asked for.
    checkpoints.start(file, 3_600_000, (problem) => problems.push(problem))
    cleanup(async () => {
      await checkpoints.stop()
      writer.close()
    })
    assert.equal(checkpoints.writerPages, WRITER_CHECKPOINT_PAGES_WITH_THREAD)

    const insert = writer.prepare('INSERT INTO rows (body) VALUES (?)')
    for (let index = 0; index < 400; index++) insert.run(Buffer.alloc(3000, index))
    const result = await checkpoints.checkpointNow()

    assert.isAbove(result.log, 400)
    assert.equal(result.checkpointed, result.log)
    assert.equal(result.busy, 0)
    // The database file alone, without its log, holds every row: the thread copied them there.
    const fileAlone = join(directory, 'file-alone.sqlite3')
    copyFileSync(file, fileAlone)
    const reader = new Database(fileAlone)
    assert.equal((reader.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n, 400)
    reader.close()
    assert.deepEqual(problems, [])

    await checkpoints.stop()
    assert.isFalse(checkpoints.running)
    assert.equal(checkpoints.writerPages, WRITER_CHECKPOINT_PAGES)
    await assert.rejects(() => checkpoints.checkpointNow(), /not running/)
  })

  test('stopping waits for the thread to end, also when nothing else keeps the process alive', async ({
    assert,
  }) => {
    const file = join(directory, 'app.sqlite3')
    writerOn(file).close()
    // A process whose last piece of work is the stop, as a command ending would be.
    const script = join(directory, 'stop.mjs')
    writeFileSync(
      script,
      [
        'const { WalCheckpoints } = await import(process.argv[2])',
        'const checkpoints = new WalCheckpoints()',
        'checkpoints.start(process.argv[3], 3_600_000, (problem) => console.log(problem))',
        'await checkpoints.stop()',
        "console.log('stopped')",
      ].join('\n')
    )
    const service = pathToFileURL(join(process.cwd(), 'app/core/services/wal_checkpoints.ts'))
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import=ts-node-maintained/register/esm', script, service.href, file],
        { cwd: process.cwd(), timeout: 30_000 },
        (error, out) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out })
      )
    })

    assert.equal(code, 0, stdout)
    assert.equal(stdout.trim(), 'stopped')
  })

  test('a thread that cannot open the database says so and leaves checkpoints to the writer', async ({
    assert,
  }) => {
    const checkpoints = new WalCheckpoints()
    const problems: string[] = []
    const ended = new Promise<void>((resolve) =>
      checkpoints.start(join(directory, 'missing.sqlite3'), 100, (problem) => {
        problems.push(problem)
        if (!checkpoints.running) resolve()
      })
    )
    await ended

    assert.match(problems[0], /checkpoint thread failed: .*(unable to open|does not exist)/i)
    assert.equal(checkpoints.writerPages, WRITER_CHECKPOINT_PAGES)
    await assert.rejects(() => checkpoints.checkpointNow(), /not running/)
  })
})
