import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** `interrupted`: the process running it died (no heartbeat); a later run took its orders over. */
export type ReleaseRunStatus = 'running' | 'finished' | 'failed' | 'interrupted'

/** One `release:run` (CLI, cron or the in-process scheduler): what it did and how it ended. */
export default class ReleaseRun extends BaseModel {
  static table = 'release_runs'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare productId: number | null

  @column()
  declare engine: string

  @column({ consume: (value) => Boolean(value) })
  declare dryRun: boolean

  @column()
  declare status: ReleaseRunStatus

  @column()
  declare trigger: string

  @column()
  declare ordersSubmitted: number

  @column()
  declare ordersSucceeded: number

  @column()
  declare ordersFailed: number

  @column()
  declare feesCharged: number

  @column()
  declare feesDue: number

  @column()
  declare lockOwner: string | null

  @column()
  declare error: string | null

  @column.dateTime()
  declare startedAt: DateTime

  @column.dateTime()
  declare finishedAt: DateTime | null

  @column.dateTime()
  declare heartbeatAt: DateTime | null
}
