import { defineJob } from '#core/jobs/job'

/** Deletes card security codes kept past their retention (also `dropslot cards:purge`). */
export const purgeCardCodesJob = defineJob({
  name: 'profiles.purge-card-codes',
  queue: 'maintenance',
  attempts: 1,
  async handle() {
    const { cardCodeRetention } = await import('#profiles/services/card_code_retention')
    return cardCodeRetention.purgeDue()
  },
})
