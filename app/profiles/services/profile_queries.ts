import Profile from '#profiles/models/profile'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

export type { Address } from '#profiles/models/profile'

/** A profile as other modules read it: its columns (the card only sealed). */
export type ProfileRecord = Readonly<ModelAttributes<Profile>>

/** A customer's profiles as other modules read them (the console's customer page). */
export const profileQueries = {
  forUser: (userId: number) => Profile.query().where('user_id', userId).orderBy('id', 'asc'),
}
