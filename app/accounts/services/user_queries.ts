import User from '#accounts/models/user'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/** An account as other modules read it: its columns (no password hash is ever presented). */
export type UserRecord = Readonly<ModelAttributes<User>>

/** Accounts as other modules read them (the console's lists, an admin choosing a customer). */
export const userQueries = {
  query: () => User.query(),
  findByUuid: (uuid: string) => User.findBy('uuid', uuid),
  findByEmail: (email: string) => User.query().where('email', email.trim().toLowerCase()).first(),
}
