import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SessionsController = () => import('#accounts/controllers/sessions_controller')
const AccountController = () => import('#accounts/controllers/account_controller')
const PasswordResetController = () => import('#accounts/controllers/password_reset_controller')

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
  })
  .as('accounts')
  .use(middleware.auth())

router.get('/users', [AccountController, 'listUsers']).as('accounts.users').use(middleware.admin())
