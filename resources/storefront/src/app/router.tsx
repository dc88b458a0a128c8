import type { ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { AppShell, type RouteHandle } from './AppShell'
import { RouteError } from './RouteError'

/** Each page is its own chunk, loaded when its route is first visited. */
const page =
  <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  async () => ({ Component: pick(await load()) })

const home = page(
  () => import('../features/home/components/HomePage'),
  (m) => m.HomePage
)
const shop = page(
  () => import('../features/shop/components/ShopPage'),
  (m) => m.ShopPage
)
const product = page(
  () => import('../features/product/components/ProductPage'),
  (m) => m.ProductPage
)
const drawProof = page(
  () => import('../features/draw/components/DrawProofPage'),
  (m) => m.DrawProofPage
)
const lineProof = page(
  () => import('../features/draw/components/LineProofPage'),
  (m) => m.LineProofPage
)
const releases = () => import('../features/releases')
const releasesList = page(releases, (m) => m.ReleasesPage)
const releaseReport = page(releases, (m) => m.ReleaseReportPage)
const auth = () => import('../features/auth')
const login = page(auth, (m) => m.LoginPage)
const signup = page(auth, (m) => m.SignupPage)
const forgot = page(auth, (m) => m.ForgotPage)
const reset = page(auth, (m) => m.ResetPage)
const logout = page(auth, (m) => m.LogoutPage)
const onboarding = () => import('../features/onboarding')
const addBilling = page(onboarding, (m) => m.AddBillingPage)
const addCard = page(onboarding, (m) => m.AddCardPage)
const signupComplete = page(onboarding, (m) => m.SignupCompletePage)
const account = page(
  () => import('../features/account/components/AccountPage'),
  (m) => m.AccountPage
)
const orders = page(
  () => import('../features/orders/components/OrdersPage'),
  (m) => m.OrdersPage
)
const profiles = page(
  () => import('../features/profiles/components/ProfilesPage'),
  (m) => m.ProfilesPage
)
const info = () => import('../features/info')
const howItWorks = page(info, (m) => m.HowItWorksPage)
const testimonials = page(info, (m) => m.TestimonialsPage)
const refundPolicy = page(info, (m) => m.RefundPolicyPage)
const terms = page(info, (m) => m.TermsPage)
const integrations = page(info, (m) => m.IntegrationsPage)
const notFound = page(info, (m) => m.NotFoundPage)

const route = (path: string, lazy: RouteObject['lazy'], title?: string): RouteObject => ({
  path,
  lazy,
  handle: { title } satisfies RouteHandle,
})

/** Every route of the spec's table, with its aliases (history mode). */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    children: [
      route('/', home, 'Release-day checkout, done for you'),
      route('/shop', shop, 'Shop'),
      route('/products', shop, 'Shop'),
      route('/product/:id', product, 'Product'),
      route('/product/:id/draw', drawProof, 'Draw proof'),
      route('/product/:id/line', lineProof, 'Waiting room line'),
      route('/releases', releasesList, 'Release results'),
      route('/releases/:id', releaseReport, 'Release report'),
      route('/signup', signup, 'Signup'),
      route('/signup2', addBilling, 'Add your Billing Address'),
      route('/signup3', addCard, 'Add a Card'),
      route('/signupcomplete', signupComplete, "You're all set"),
      route('/login', login, 'Login'),
      route('/forgot', forgot, 'Forgot password'),
      route('/reset', reset, 'Reset password'),
      route('/logout', logout, 'Logging out'),
      route('/how-it-works', howItWorks, 'How it works'),
      route('/testimonials', testimonials, 'Testimonials'),
      route('/refund-policy', refundPolicy, 'Refund policy'),
      route('/refundPolicy.html', refundPolicy, 'Refund policy'),
      route('/terms', terms, 'Terms'),
      route('/tos', terms, 'Terms'),
      route('/ourTerms.html', terms, 'Terms'),
      route('/integrations', integrations, 'Integrations'),
      route('/user/account', account, 'Account'),
      route('/user/recentOrders', orders, 'Recent Orders'),
      route('/user/orders', orders, 'Recent Orders'),
      route('/user/profiles', profiles, 'Profiles'),
      route('/addBilling', addBilling, 'Add your Billing Address'),
      route('/addCard', addCard, 'Add a Card'),
      route('*', notFound, 'Page not found'),
    ],
  },
]

export const createRouter = () => createBrowserRouter(routes)
