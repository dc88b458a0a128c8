import logger from '@adonisjs/core/services/logger'
import { defineJob } from '#core/jobs/job'
import { drawRunner } from '#draws/services/draw_runner'

/** Runs every draw whose entries have closed (also `dropslot draw:run --product ID`). */
export const runDueDrawsJob = defineJob({
  name: 'draws.run-due',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    for (const productId of await drawRunner.due()) {
      try {
        await drawRunner.run(productId, { label: 'scheduler' })
      } catch (error) {
        // One draw that cannot finish (no slot left for a winner) must not stop the others.
        logger.error({ err: error, productId }, 'draw failed')
      }
    }
  },
})
