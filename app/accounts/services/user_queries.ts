import User from '#accounts/models/user'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'

/** An account as other modules read it: its columns (no password hash is ever presented). */
export type UserRecord = Readonly<ModelAttributes<User>>

/**
 * A customer as a purchase reads them: who they are and the card on file at the gateway. The
 * checkout's guard gives this record (no model); a loaded `User` is one too.
 */
export type CustomerRecord = Pick<
  UserRecord,
  | 'id'
  | 'uuid'
  | 'email'
  | 'name'
  | 'gatewayCustomerId'
  | 'cardPaymentMethodId'
  | 'cardBrand'
  | 'cardLast4'
  | 'cardFingerprint'
>

/** Accounts as other modules read them (the console's lists, an admin choosing a customer). */
export const userQueries = {
  query: () => User.query(),
  findByUuid: (uuid: string) => User.findBy('uuid', uuid),
  findByEmail: (email: string) => User.query().where('email', email.trim().toLowerCase()).first(),
}
