import logger from '@adonisjs/core/services/logger'

type Worker = { name: string; everyMs: number; run: () => Promise<unknown> }

/**
 * Small in-process loops for work that must happen after a request (e-mail delivery, holds).
 * Each loop runs one pass at a time; a pass that throws is logged and tried again next tick.
 * They run in the web process; the state they work from lives in the database, so a crash
 * loses nothing and any process (or the CLI) can pick the work up.
 */
export class BackgroundWorkers {
  private workers: Worker[] = []
  private timers: NodeJS.Timeout[] = []
  private running = new Set<string>()

  register(worker: Worker) {
    this.workers.push(worker)
  }

  start() {
    for (const worker of this.workers) {
      const tick = async () => {
        if (this.running.has(worker.name)) return
        this.running.add(worker.name)
        try {
          await worker.run()
        } catch (error) {
          logger.error({ err: error, worker: worker.name }, 'background worker pass failed')
        } finally {
          this.running.delete(worker.name)
        }
      }
      const timer = setInterval(tick, worker.everyMs)
      timer.unref()
      this.timers.push(timer)
    }
  }

  stop() {
    for (const timer of this.timers) clearInterval(timer)
    this.timers = []
  }
}

export const backgroundWorkers = new BackgroundWorkers()
