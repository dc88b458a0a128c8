import { lazy, Suspense } from 'react'
import { BrowserRouter } from 'react-router-dom'
import { LinearProgress } from '@mui/material'
import { QueryClient } from '@tanstack/react-query'
import { Admin, Resource, radiantDarkTheme, radiantLightTheme } from 'react-admin'
import { authProvider } from './authProvider'
import { dataProvider } from './dataProvider'
import { i18nProvider } from './i18n'
import { SignInPage } from './signIn/SignInPage'
import { StepUpDialog } from './signIn/StepUpDialog'
import { ConsoleLayout } from './components/ConsoleLayout'
import { type Permission, roleCan } from '@shared/staff_roles'

// The dashboard's charts (recharts) load on their own, after sign-in.
const LazyDashboard = lazy(() =>
  import('./dashboard/Dashboard').then((module) => ({ default: module.Dashboard }))
)
const Dashboard = () => (
  <Suspense fallback={<LinearProgress sx={{ m: 2 }} />}>
    <LazyDashboard />
  </Suspense>
)
import products from './products'
import orders from './orders'
import customers from './customers'
import promoCodes from './promoCodes'
import subscribers from './subscribers'
import emails from './emails'
import mailbox from './emails/Mailbox'
import auditLog from './auditLog'
import releaseRuns from './releaseRuns'
import incidents from './incidents'
import mail from './mail'
import sessions from './sessions'

/**
 * A 4xx or a signed-out session is an answer, not a hiccup: never retried (react-query would
 * otherwise retry 3 times with back-off, keeping the sign-in page waiting for seconds).
 * Network failures and 5xx get one more try.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => {
        const status = (error as { status?: number }).status
        if (status !== undefined && status < 500) return false
        if (String((error as Error).message ?? '').startsWith('ra.auth')) return false
        return failureCount < 1
      },
    },
  },
})

/** The ops console. History-mode routes under /admin (the server falls back to index.html). */
export function App() {
  return (
    <BrowserRouter basename="/admin">
      <Admin
        title="Dropslot ops"
        queryClient={queryClient}
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={SignInPage}
        layout={ConsoleLayout}
        i18nProvider={i18nProvider}
        dashboard={Dashboard}
        theme={radiantLightTheme}
        darkTheme={radiantDarkTheme}
        requireAuth
        disableTelemetry
      >
        {(role: string | null) => {
          // Each role sees the forms it may use (shared/staff_roles.ts); the API refuses the rest.
          const only = <T,>(permission: Permission, page: T) =>
            roleCan(role, permission) ? page : undefined
          return [
            <Resource
              key="orders"
              name="orders"
              {...orders}
              create={only('orders', orders.create)}
            />,
            <Resource
              key="products"
              name="products"
              {...products}
              create={only('catalog', products.create)}
              edit={only('catalog', products.edit)}
            />,
            <Resource
              key="customers"
              name="customers"
              {...customers}
              edit={only('customers', customers.edit)}
            />,
            <Resource
              key="promo-codes"
              name="promo-codes"
              {...promoCodes}
              create={only('catalog', promoCodes.create)}
              edit={only('catalog', promoCodes.edit)}
            />,
            <Resource key="subscribers" name="subscribers" {...subscribers} />,
            <Resource key="emails" name="emails" {...emails} />,
            // The kept e-mails (no SMTP outside production), read from the emails API.
            <Resource key="mailbox" name="mailbox" {...mailbox} />,
            <Resource key="release-runs" name="release-runs" {...releaseRuns} />,
            <Resource key="incidents" name="incidents" {...incidents} />,
            <Resource key="mail-messages" name="mail-messages" {...mail} />,
            <Resource key="audit-log" name="audit-log" {...auditLog} />,
            <Resource key="sessions" name="sessions" {...sessions} />,
          ]
        }}
      </Admin>
      <StepUpDialog />
    </BrowserRouter>
  )
}
