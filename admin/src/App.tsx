import { BrowserRouter } from 'react-router-dom'
import { Admin, CustomRoutes, Resource, radiantDarkTheme, radiantLightTheme } from 'react-admin'
import { authProvider } from './authProvider'
import { dataProvider } from './dataProvider'
import { i18nProvider } from './i18n'
import { Dashboard } from './dashboard/Dashboard'
import products from './products'
import orders from './orders'
import customers from './customers'
import promoCodes from './promoCodes'
import subscribers from './subscribers'
import emails from './emails'
import auditLog from './auditLog'
import releaseRuns from './releaseRuns'

/** The ops console. History-mode routes under /admin (the server falls back to index.html). */
export function App() {
  return (
    <BrowserRouter basename="/admin">
      <Admin
        title="Dropslot ops"
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        dashboard={Dashboard}
        theme={radiantLightTheme}
        darkTheme={radiantDarkTheme}
        requireAuth
        disableTelemetry
      >
        <Resource name="orders" {...orders} />
        <Resource name="products" {...products} />
        <Resource name="customers" {...customers} />
        <Resource name="promo-codes" {...promoCodes} />
        <Resource name="subscribers" {...subscribers} />
        <Resource name="emails" {...emails} />
        <Resource name="release-runs" {...releaseRuns} />
        <Resource name="audit-log" {...auditLog} />
        <CustomRoutes>{[]}</CustomRoutes>
      </Admin>
    </BrowserRouter>
  )
}
