import { defineJob } from '#core/jobs/job'
import { cardCodeRetention } from '#profiles/services/card_code_retention'

/** Deletes card security codes kept past their retention (also `dropslot cards:purge`). */
export const purgeCardCodesJob = defineJob({
  name: 'profiles.purge-card-codes',
  queue: 'maintenance',
  attempts: 1,
  handle: () => cardCodeRetention.purgeDue(),
})
