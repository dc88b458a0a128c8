import User from '#accounts/models/user'

/** Accounts as other modules read them (the console's lists, an admin choosing a customer). */
export const userQueries = {
  query: () => User.query(),
  findByUuid: (uuid: string) => User.findBy('uuid', uuid),
  findByEmail: (email: string) => User.query().where('email', email.trim().toLowerCase()).first(),
}
