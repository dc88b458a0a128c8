import Profile from '#profiles/models/profile'

/** A customer's profiles as other modules read them (the console's customer page). */
export const profileQueries = {
  forUser: (userId: number) => Profile.query().where('user_id', userId).orderBy('id', 'asc'),
}
