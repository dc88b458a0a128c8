import { defineJob } from '#core/jobs/job'

/**
 * Every minute: commits draws whose entries opened, freezes those whose entries closed, runs
 * those whose beacon round is out, finishes those not settled, replaces winners who dropped out
 * before release day (also `dropslot draw:run --product ID`); and orders the waiting rooms'
 * lines the same way.
 */
export const runDueDrawsJob = defineJob({
  name: 'draws.run-due',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { drawRunner } = await import('#draws/services/draw_runner')
    const { waitingRoom } = await import('#draws/services/waiting_room')
    await drawRunner.sweep()
    await waitingRoom.sweep()
  },
})
