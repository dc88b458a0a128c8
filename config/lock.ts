import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/lock'
import type { InferLockStores } from '@adonisjs/lock/types'
import { lucidLockStore } from '#core/services/lucid_lock_store'

/*
| Locks shared by every process: the release run's lock, renewed while a run goes on. On Redis
| when REDIS_URL is set (one store for every web process and worker), otherwise on the database
| (`locks` table), which every process of an install shares as well.
*/
const lockConfig = defineConfig({
  default: env.get('REDIS_URL') ? 'redis' : 'database',
  stores: {
    redis: stores.redis({ connectionName: 'main' }),
    database: lucidLockStore(),
  },
})

export default lockConfig

declare module '@adonisjs/lock/types' {
  export interface LockStoresList extends InferLockStores<typeof lockConfig> {}
}
