import { Suspense, useEffect, useLayoutEffect, useState } from 'react'
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router-dom'
import { Header } from '../shared/layout/Header'
import { Footer } from '../shared/layout/Footer'
import { GlobalAlert, useAlert } from '../shared/ui/alert'
import { PageLoading } from '../shared/ui/Spinner'
import { session } from '../shared/session/session'
import { capturePromoCode } from '../shared/promo'
import { notifyChatRouteChange } from '../shared/thirdparty/chat'
import { guardRedirect } from './guard'
import { withReturnPath } from '../shared/lib/returnTo'

export type RouteHandle = { title?: string; bare?: boolean }

/**
 * The frame of every screen: the navigation guard (checked on each navigation against the stored
 * user, as the spec's beforeEach), the page title from route meta, the global alert cleared on
 * route change, the promo code from the URL and the chat widget's route-change update.
 */
export function AppShell() {
  const location = useLocation()
  const matches = useMatches()
  const { clear } = useAlert()

  // Decided once per navigation (location.key), not when the session changes under a page.
  const [guard, setGuard] = useState(() => ({
    key: location.key,
    redirect: guardRedirect(location.pathname, session.get() !== null),
  }))
  let redirect = guard.redirect
  if (guard.key !== location.key) {
    redirect = guardRedirect(location.pathname, session.get() !== null)
    setGuard({ key: location.key, redirect })
  }

  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle)?.title)
    ?.handle as RouteHandle | undefined

  useEffect(() => {
    document.title = handle?.title ? `${handle.title} · Dropslot` : 'Dropslot'
  }, [handle?.title])

  // Before paint, so the next screen never flashes the previous screen's alert.
  useLayoutEffect(() => {
    clear()
  }, [location.pathname, clear])

  useEffect(() => {
    notifyChatRouteChange()
  }, [location.pathname])

  useEffect(() => {
    capturePromoCode(location.search)
  }, [location.search])

  if (redirect) {
    // A deep link (a product from a drop announcement) survives the detour through login.
    const to =
      redirect === '/login'
        ? withReturnPath('/login', location.pathname + location.search)
        : redirect
    return <Navigate to={to} replace />
  }

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <GlobalAlert />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  )
}
