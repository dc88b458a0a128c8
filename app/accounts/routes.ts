import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { numericId } from '#core/helpers/route_matchers'

const SessionsController = () => import('#accounts/controllers/sessions_controller')
const AccountController = () => import('#accounts/controllers/account_controller')
const PasswordResetController = () => import('#accounts/controllers/password_reset_controller')
const SecondFactorController = () => import('#accounts/controllers/second_factor_controller')
const StaffSessionsController = () => import('#accounts/controllers/staff_sessions_controller')
const PasskeysController = () => import('#accounts/controllers/passkeys_controller')

router.post('/login', [SessionsController, 'login']).as('accounts.login')
router.post('/register', [SessionsController, 'register']).as('accounts.register')
router.post('/register/ad', [SessionsController, 'registerWithAdToken']).as('accounts.registerAd')
router.post('/api/forgotpw', [PasswordResetController, 'forgot']).as('accounts.forgotPassword')
router.post('/api/resetpassword', [PasswordResetController, 'reset']).as('accounts.resetPassword')

router
  .group(() => {
    router.post('/api/logout', [SessionsController, 'logout']).as('logout')
    router.get('/api/user/info', [AccountController, 'info']).as('info')
    router.post('/api/user/updateProfile', [AccountController, 'update']).as('update')
    router.post('/api/user/billing/set', [AccountController, 'setBilling']).as('billing.set')
    router
      .post('/api/user/billing/confirmCard', [AccountController, 'confirmCard'])
      .as('billing.confirmCard')
    router
      .post('/api/user/billing/genToken', [AccountController, 'genToken'])
      .as('billing.genToken')
    router.post('/api/user/delete', [AccountController, 'destroy']).as('delete')
    router.post('/api/user/totp/remove', [SecondFactorController, 'remove']).as('totp.remove')
  })
  .as('accounts')
  .use(middleware.auth())

// The only routes a staff token opens before its second factor (and after it, to add one).
router
  .group(() => {
    router.post('/api/session/totp/enrol', [SecondFactorController, 'enrol']).as('totp.enrol')
    router.post('/api/session/totp', [SecondFactorController, 'totp']).as('totp')
    router.post('/api/session/recovery', [SecondFactorController, 'recovery']).as('recovery')
    router
      .post('/api/session/passkey/register/options', [PasskeysController, 'registrationOptions'])
      .as('passkey.registrationOptions')
    router
      .post('/api/session/passkey/register', [PasskeysController, 'register'])
      .as('passkey.register')
    router
      .post('/api/session/passkey/options', [PasskeysController, 'authenticationOptions'])
      .as('passkey.options')
    router.post('/api/session/passkey', [PasskeysController, 'authenticate']).as('passkey')
    router.post('/api/session/logout', [SessionsController, 'logout']).as('logout')
  })
  .as('factor')
  .use(middleware.auth({ factorPending: true }))

router.get('/users', [AccountController, 'listUsers']).as('accounts.users').use(middleware.admin())

// Staff sessions: each staff member sees and ends their own; an owner anyone's.
router
  .group(() => {
    router.get('/sessions', [StaffSessionsController, 'index']).as('sessions.index')
    router
      .delete('/sessions/:id', [StaffSessionsController, 'revoke'])
      .where('id', numericId)
      .as('sessions.revoke')
  })
  .prefix('/api/admin')
  .as('admin')
  .use(middleware.admin())
