/*
| The API contract: every call the storefront and the console make, keyed by method and path, with
| what it takes and what it answers, read from the server's own code (the controllers' return
| values, the presenters they answer with, the VineJS validators of the bodies). Nothing here is
| written a second time by hand, so a payload changed on the server and not followed by a screen
| fails `npm run typecheck`. Type-only: the front ends import it with `import type` (lint checks),
| and nothing of the server reaches a browser bundle.
|
| Where a controller answers through `response.created(...)` or `response.status(202).json(...)`
| (which return nothing TypeScript can follow), the answer is composed from the presenter the
| controller hands to it.
*/
import type { VineValidator } from '@vinejs/vine'
import type { InferInput } from '@vinejs/vine/types'
// The augmentations the controllers rely on (request.validateUsing, ctx.auth and its user,
// ctx.bouncer), for the front ends' programs, which do not load the server's providers.
import type {} from '@adonisjs/core/providers/vinejs_provider'
import type {} from '@adonisjs/auth/initialize_auth_middleware'
import type {} from '#config/auth'
import type {} from '#start/authorization'
import type {} from '@adonisjs/transmit/transmit_provider'
import type AccountController from '#accounts/controllers/account_controller'
import type PasswordResetController from '#accounts/controllers/password_reset_controller'
import type SessionsController from '#accounts/controllers/sessions_controller'
import type SecondFactorController from '#accounts/controllers/second_factor_controller'
import type CatalogProductsController from '#catalog/controllers/products_controller'
import type PromoController from '#checkout/controllers/promo_controller'
import type DrawsController from '#draws/controllers/draws_controller'
import type WaitingRoomsController from '#draws/controllers/waiting_rooms_controller'
import type NewsletterController from '#notifications/controllers/newsletter_controller'
import type PingsController from '#notifications/controllers/pings_controller'
import type OrdersController from '#orders/controllers/orders_controller'
import type HoldAuthenticationController from '#payments/controllers/hold_authentication_controller'
import type ProfilesController from '#profiles/controllers/profiles_controller'
import type ReleaseReportsController from '#release/controllers/release_reports_controller'
import type {
  billingAddressValidator,
  forgotPasswordValidator,
  loginValidator,
  registerValidator,
  resetPasswordValidator,
  updateProfileValidator,
} from '#accounts/validators/account_validators'
import type {
  discordWebhookValidator,
  pushEndpointValidator,
  pushSubscriptionValidator,
} from '#notifications/validators/ping_validators'
import type { presentUserInfo } from '#accounts/services/user_presenter'
import type { presentProfile } from '#profiles/services/profile_service'
import type { presentOrder } from '#orders/services/order_presenter'
import type { CheckoutRequest } from '#checkout/services/checkout_service'
import type { SlotChoicesRequest } from '#checkout/services/slot_choices'
import type SlotChoicesController from '#checkout/controllers/slot_choices_controller'
import type QueuesController from '#admin/controllers/queues_controller'
import type AdminOrdersController from '#admin/controllers/orders_controller'
import type CustomersController from '#admin/controllers/customers_controller'
import type DashboardController from '#admin/controllers/dashboard_controller'
import type IncidentsController from '#alerts/controllers/incidents_controller'
import type { ErrorEnvelope } from '#core/exceptions/handler'
import type { consoleReleaseRun } from '#release/services/console_release_run'

/** What a controller's action answers (a 2xx body it returns). */
type Answer<Controller, Action extends keyof Controller> = Controller[Action] extends (
  ...args: any[]
) => infer Result
  ? Exclude<Awaited<Result>, void | undefined>
  : never

/** What a validated body takes (before the validator trims, lower-cases or fills defaults). */
type Body<Validator> =
  Validator extends VineValidator<infer Schema, any> ? InferInput<Schema> : never

export type UserInfo = ReturnType<typeof presentUserInfo>
export type Profile = ReturnType<typeof presentProfile>
export type Product = Answer<CatalogProductsController, 'show'>
/** A retailer the slot is tried at: id, display name, its release time, retail price, page. */
export type ProductRetailer = Product['retailers'][number]
export type Order = Answer<OrdersController, 'index'>[number]
export type BillingAddress = NonNullable<UserInfo['billingAddress']>
/** A profile's shipping or billing address, as the profile answers it. */
export type ProfileAddress = Profile['shipping']
/** `POST /api/user/billing/set`'s address. */
export type BillingPayload = Body<typeof billingAddressValidator>['billingAddress']

/** billing/set and billing/confirmCard's 202: the 3-D Secure challenge still to complete. */
export type CardAuthenticationAnswer = {
  success: false
  code: string
  message: string
  authentication: { setupId: string; challengeUrl: string | null; clientSecret: string | null }
}
export type CardAuthentication = CardAuthenticationAnswer['authentication']
/** billing/set and billing/confirmCard: saved (the user), or the challenge still to complete. */
export type CardSaveAnswer = Answer<AccountController, 'setBilling'> | CardAuthenticationAnswer

export type LineStatus = Answer<WaitingRoomsController, 'status'>
export type DrawProof = Answer<DrawsController, 'proof'>
export type InclusionProof = Answer<DrawsController, 'inclusion'>
export type LineProof = Answer<WaitingRoomsController, 'proof'>
export type PingsOverview = Answer<PingsController, 'show'>
export type TestPingReport = Answer<PingsController, 'test'>
export type Promo = Answer<PromoController, 'lookup'>
export type HoldAuthenticationAnswer = Answer<HoldAuthenticationController, 'authenticate'>
export type ReleasesOverview = Answer<ReleaseReportsController, 'index'>
export type ReleaseReport = Answer<ReleaseReportsController, 'show'>
export type Outcome = ReleaseReport['lines'][number]['outcome']
export type AuthAnswer = Answer<SessionsController, 'login'>
/** POST /register's body. */
export type Registration = Body<typeof registerValidator>

/** Every 4xx/5xx answer: `{success: false, error, code, errors?}`. */
export type { ErrorEnvelope }

/** The console's answers (`admin/src/dataProvider.ts`). */
export type QueuesOverview = Answer<QueuesController, 'index'>
/** GET /api/admin/draws/:id: a draw's proof, entries and the second entries it refused. */
export type DrawView = Answer<DrawsController, 'show'>
export type DrawRunAnswer = Answer<DrawsController, 'run'>
/** POST /api/admin/release-runs: the run's record (201), or `{queued: true}` for workers (202). */
export type ReleaseRunAnswer = Awaited<ReturnType<(typeof consoleReleaseRun)['run']>>
export type QueuedReleaseRun = Extract<ReleaseRunAnswer, { queued: true }>
export type ReleaseRunResult = Exclude<ReleaseRunAnswer, { queued: true }>
/** GET /api/admin/orders/:id: the order with its timeline, ledger, e-mails and audit entries. */
export type AdminOrder = Answer<AdminOrdersController, 'show'>
/** GET /api/admin/customers/:id: the customer with their profiles. */
export type AdminCustomer = Answer<CustomersController, 'show'>
export type DashboardSummary = Answer<DashboardController, 'show'>
export type Incident = Answer<IncidentsController, 'show'>
/** GET /api/admin/releases/:productId/report: the outcome report with the reconciliation. */
export type ConsoleReleaseReport = Answer<ReleaseReportsController, 'console'>
/** GET /api/admin/products/:id/queue: a waiting room's figures. */
export type LineFigures = Answer<WaitingRoomsController, 'show'>

/**
 * Every call: `'METHOD /path/:param'` -> `{ body?, query?, response }`. The clients
 * (`resources/storefront/src/shared/api/client.ts`) take the key, fill in the path's parameters
 * and type the body and the answer from here.
 */
export interface ApiRoutes {
  'POST /login': { body: Body<typeof loginValidator>; response: AuthAnswer }
  'POST /register': { body: Body<typeof registerValidator>; response: AuthAnswer }
  'POST /api/forgotpw': {
    body: Body<typeof forgotPasswordValidator>
    response: Answer<PasswordResetController, 'forgot'>
  }
  'POST /api/resetpassword': {
    body: Body<typeof resetPasswordValidator>
    response: Answer<PasswordResetController, 'reset'>
  }
  'GET /api/user/info': { response: Answer<AccountController, 'info'> }
  'POST /api/user/updateProfile': {
    body: Body<typeof updateProfileValidator>
    response: Answer<AccountController, 'update'>
  }
  'POST /api/user/billing/set': {
    body: Body<typeof billingAddressValidator>
    response: CardSaveAnswer
  }
  'POST /api/user/billing/confirmCard': {
    body: { setupId: string }
    response: Answer<AccountController, 'confirmCard'> | CardAuthenticationAnswer
  }
  'POST /api/user/billing/genToken': {
    body: { encrypted: string }
    response: Answer<AccountController, 'genToken'>
  }
  /** A new authenticator secret and its otpauth:// URI (any signed-in account without one). */
  'POST /api/session/totp/enrol': { response: Answer<SecondFactorController, 'enrol'> }
  /** The authenticator's code: completes a sign-in, or proves a new authenticator. */
  'POST /api/session/totp': {
    body: { code: string }
    response: Answer<SecondFactorController, 'totp'>
  }
  'POST /api/session/recovery': {
    body: { code: string }
    response: Answer<SecondFactorController, 'recovery'>
  }
  'POST /api/user/totp/remove': {
    body: { code: string }
    response: Answer<SecondFactorController, 'remove'>
  }
  'POST /api/user/delete': {
    body: { password: string }
    response: Answer<AccountController, 'destroy'>
  }
  'GET /api/products': { response: Answer<CatalogProductsController, 'index'> }
  'GET /api/products/:id': { response: Product }
  'GET /api/products/:id/draw': { response: DrawProof }
  'GET /api/products/:id/draw/entries/:entryId': { response: InclusionProof }
  'GET /api/products/:id/queue/proof': { response: LineProof }
  'POST /api/products/:id/queue': { response: Answer<WaitingRoomsController, 'join'> }
  'GET /api/products/:id/queue': { response: LineStatus }
  'GET /api/promoLookup': { query: { promoCode: string }; response: Promo }
  'POST /api/checkout/withprofile': {
    body: Omit<CheckoutRequest, 'outsideWaitingRoom'>
    response: { success: true; order: ReturnType<typeof presentOrder> }
  }
  'GET /api/user/orders': { response: Order[] }
  'POST /api/user/orders/:orderId/choices': {
    body: SlotChoicesRequest
    response: Answer<SlotChoicesController, 'change'>
  }
  'POST /api/user/orders/:orderId/hold/authenticate': { response: HoldAuthenticationAnswer }
  'POST /api/user/orders/:orderId/hold/confirm': {
    response:
      | Answer<HoldAuthenticationController, 'confirm'>
      | { success: false; code: 'hold_authentication_required'; message: string }
  }
  'GET /api/user/profiles': { response: Answer<ProfilesController, 'index'> }
  'POST /api/user/profiles/add': {
    body: { eProfile: string }
    response: { success: true; profile: Profile }
  }
  'POST /api/user/profiles/edit': {
    body: { eProfile: string }
    response: Answer<ProfilesController, 'edit'>
  }
  'POST /api/user/profiles/delete': {
    body: { profileId: string }
    response: Answer<ProfilesController, 'delete'>
  }
  'GET /api/user/pings': { response: PingsOverview }
  'POST /api/user/pings/push': {
    body: Body<typeof pushSubscriptionValidator>
    response: PingsOverview
  }
  'POST /api/user/pings/push/delete': {
    body: Body<typeof pushEndpointValidator>
    response: Answer<PingsController, 'unsubscribe'>
  }
  'PUT /api/user/pings/discord': {
    body: Body<typeof discordWebhookValidator>
    response: Answer<PingsController, 'setDiscord'>
  }
  'DELETE /api/user/pings/discord': { response: Answer<PingsController, 'clearDiscord'> }
  'POST /api/user/pings/test': { response: TestPingReport }
  'GET /api/releases': { response: ReleasesOverview }
  'GET /api/releases/:productId/report': { response: ReleaseReport }
  'GET /api/addEmail': {
    query: { email: string }
    response: Answer<NewsletterController, 'subscribe'>
  }
}

export type ApiRoute = keyof ApiRoutes
