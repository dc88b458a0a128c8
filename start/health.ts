/*
| Health checks (AdonisJS's health module), run by GET /health: the database, Redis when it is
| used, and the job queues' lag. Built per request so that they check the connections in use now.
*/
import { BaseCheck, HealthChecks, Result } from '@adonisjs/core/health'
import { DbCheck } from '@adonisjs/lucid/database'
import { RedisCheck } from '@adonisjs/redis'
import db from '@adonisjs/lucid/services/db'
import redis from '@adonisjs/redis/services/main'
import env from '#start/env'
import { jobs } from '#core/jobs/jobs'

/** A queue whose oldest job has waited longer than this many seconds warns (workers stuck?). */
const QUEUE_LAG_WARNING_SECONDS = 60

export class QueueCheck extends BaseCheck {
  name = 'Job queues'

  async run() {
    try {
      const status = await jobs.status()
      const lag = Math.max(0, ...status.map((queue) => queue.oldestWaitingSeconds ?? 0))
      const failed = status.reduce((sum, queue) => sum + queue.failed, 0)
      const meta = { driver: jobs.driverName, oldestWaitingSeconds: lag, failed }
      return lag > QUEUE_LAG_WARNING_SECONDS
        ? Result.warning(`The oldest job has waited ${lag} s`).mergeMetaData(meta)
        : Result.ok('Jobs are being taken').mergeMetaData(meta)
    } catch (error) {
      return Result.failed('The queues cannot be read', error as Error).mergeMetaData({
        driver: jobs.driverName,
      })
    }
  }
}

/**
 * Draws and waiting-room lines whose quicknet round is out but that no relay could give: they
 * wait (nothing is drawn without the beacon) and say so, with the last reason. A warning, not a
 * failure: the process works, the draw waits for its beacon (or `dropslot draw:run --beacon`).
 */
export class BeaconCheck extends BaseCheck {
  name = 'Draw beacons'

  async run() {
    try {
      const { drawRunner } = await import('#draws/services/draw_runner')
      const { waitingRoom } = await import('#draws/services/waiting_room')
      const draws = await drawRunner.waitingForBeacon()
      const lines = await waitingRoom.waitingForBeacon()
      const meta = { draws, lines }
      const waiting = draws.length + lines.length
      return waiting > 0
        ? Result.warning(
            `${waiting} draw(s) or line(s) wait for their beacon round: no relay gave it`
          ).mergeMetaData(meta)
        : Result.ok('No draw waits for its beacon').mergeMetaData(meta)
    } catch (error) {
      return Result.failed('The draws cannot be read', error as Error)
    }
  }
}

/**
 * The mail intake's mailbox: a door (IMAP) that could not be read for 5 minutes warns (the
 * retailers' e-mails are not arriving), without failing the process.
 */
export class MailIntakeCheck extends BaseCheck {
  name = 'Mail intake'

  async run() {
    try {
      const { mailDoors } = await import('#mail/services/mail_doors')
      const doors = await mailDoors.unreadable()
      const unreadable = doors.map((door) => door.door)
      return unreadable.length > 0
        ? Result.warning(
            `Mail intake unreadable for 5 minutes: ${unreadable.join(', ')}`
          ).mergeMetaData({ unreadable })
        : Result.ok('The mail intake reads its mailbox').mergeMetaData({ unreadable })
    } catch (error) {
      return Result.failed('The mail intake cannot be read', error as Error)
    }
  }
}

/** Redis's check, after opening the connection: it is opened lazily, on its first command. */
class RedisConnectedCheck extends RedisCheck {
  async run() {
    const connection = redis.connection('main')
    if (connection.status === 'wait') await connection.ioConnection.connect().catch(() => {})
    return super.run()
  }
}

export function healthChecks() {
  return new HealthChecks().register([
    new DbCheck(db.connection()),
    ...(env.get('REDIS_URL') ? [new RedisConnectedCheck(redis.connection('main'))] : []),
    new QueueCheck(),
    new BeaconCheck(),
    new MailIntakeCheck(),
  ])
}
