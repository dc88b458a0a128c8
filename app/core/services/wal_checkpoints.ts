import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** SQLite's own threshold: the writer checkpoints after a commit leaves this many log pages. */
export const WRITER_CHECKPOINT_PAGES = 1000
/**
 * While the thread checkpoints, the writer still does at this size: only it can start the log
 * over from its beginning (after a complete checkpoint), and under a steady rush the thread never
 * sees the log complete. By then the thread has copied nearly every page, so little is left.
 */
export const WRITER_CHECKPOINT_PAGES_WITH_THREAD = 4000

export type CheckpointResult = { busy: number; log: number; checkpointed: number }
type Reply = { id: number; result?: CheckpointResult; error?: string }

/**
 * The thread's whole program (CommonJS, so it runs the same from the source tree and the build):
 * its own connection to the file, a PASSIVE checkpoint (never waits for readers or writers) on
 * a timer and on request.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
// A driver's error crosses to the parent as its code alone: it goes as a plain Error instead.
const plain = (error) => new Error(((error.code ?? '') + ' ' + error.message).trim())
let database
try { database = new Database(workerData.file, { fileMustExist: true }) }
catch (error) { throw plain(error) }
const checkpoint = () => database.pragma('wal_checkpoint(PASSIVE)')[0]
const timer = setInterval(() => {
  try { checkpoint() } catch (error) { parentPort.postMessage({ id: 0, error: plain(error).message }) }
}, workerData.everyMs)
parentPort.on('message', (id) => {
  if (id === 'stop') { clearInterval(timer); database.close(); parentPort.close(); return }
  try { parentPort.postMessage({ id, result: checkpoint() }) }
  catch (error) { parentPort.postMessage({ id, error: plain(error).message }) }
})
`

/**
 * Checkpoints of the embedded database's write-ahead log, off the request thread. SQLite copies
 * the log into the database file from within a commit, once the log holds 1,000 pages, and waits
 * there for the disk (fsync): during a release-day rush that stalled the web process's only
 * thread for every checkout in flight, about once every 125 checkouts (docs/performance.md).
 * Here a thread of the web process copies the log on a timer instead, on its own connection, and
 * the request thread checkpoints only rarely, to start the log over.
 *
 * Only the long-running web process starts it; short commands keep SQLite's default.
 */
export class WalCheckpoints {
  private thread: Worker | null = null
  private waiting = new Map<number, (reply: Reply) => void>()
  private nextId = 1

  /** Pages the writing connection lets the log hold before it checkpoints itself. */
  get writerPages() {
    return this.thread ? WRITER_CHECKPOINT_PAGES_WITH_THREAD : WRITER_CHECKPOINT_PAGES
  }

  get running() {
    return this.thread !== null
  }

  /**
   * Starts the thread on `file`, checkpointing every `everyMs`. `onProblem` hears of a failed
   * checkpoint or of the thread's end; after its end the writer checkpoints as SQLite does.
   */
  start(file: string, everyMs: number, onProblem: (message: string) => void) {
    if (this.thread) return
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const thread = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { file, everyMs, driver },
    })
    thread.unref()
    thread.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id)
      if (waiter) {
        this.waiting.delete(reply.id)
        waiter(reply)
      } else if (reply.error) {
        onProblem(`checkpoint failed: ${reply.error}`)
      }
    })
    thread.on('error', (error) => onProblem(`checkpoint thread failed: ${error?.message ?? error}`))
    thread.on('exit', () => {
      if (this.thread !== thread) return
      this.thread = null
      for (const waiter of this.waiting.values()) waiter({ id: 0, error: 'the thread ended' })
      this.waiting.clear()
      onProblem('checkpoint thread ended; the writer checkpoints again')
    })
    this.thread = thread
  }

  /** A checkpoint now, on the thread: what its timer does, when a test needs it done. */
  checkpointNow(): Promise<CheckpointResult> {
    const thread = this.thread
    if (!thread) return Promise.reject(new Error('the checkpoint thread is not running'))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) =>
        reply.result ? resolve(reply.result) : reject(new Error(reply.error))
      )
      thread.postMessage(id)
    })
  }

  /** Stops the thread after the checkpoint it may be running. */
  async stop() {
    const thread = this.thread
    if (!thread) return
    this.thread = null
    const ended = new Promise((resolve) => thread.once('exit', resolve))
    // Held until it ends: unreferenced, a process with nothing else left would leave this wait
    // unfinished and the connection open.
    thread.ref()
    thread.postMessage('stop')
    await ended
  }
}

export const walCheckpoints = new WalCheckpoints()
