import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router-dom'
import { QueryClientProvider } from '@tanstack/react-query'
import { queryClient } from './shared/api/query'
import { createRouter } from './app/router'
import { loadConfig } from './shared/config'
import { AlertProvider } from './shared/ui/alert'
import { bootChatWidget } from './shared/thirdparty/chat'
import { startAnalytics } from './shared/thirdparty/analytics'
import { startCardProvider } from './shared/thirdparty/cardProvider'
import { registerServiceWorker } from './shared/lib/serviceWorker'
import './shared/styles.css'

const root = createRoot(document.getElementById('root')!)

function showStartupError(error: unknown) {
  root.render(
    <div className="container narrow center-page">
      <h1>Dropslot is not available right now</h1>
      <p className="muted">
        {error instanceof Error ? error.message : 'The storefront could not start.'} Please try
        again in a moment.
      </p>
      <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
        Try again
      </button>
    </div>
  )
}

loadConfig()
  .then(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AlertProvider>
            <RouterProvider router={createRouter()} />
          </AlertProvider>
        </QueryClientProvider>
      </StrictMode>
    )
    // Third-party pieces start after the first render, only when configured; nothing waits for them.
    const later = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1))
    later(() => {
      bootChatWidget()
      startAnalytics()
      startCardProvider()
      registerServiceWorker()
    })
  })
  .catch(showStartupError)
