import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom'

/** Shown when a page fails to load (for example a new deploy removed an old chunk). */
export function RouteError() {
  const error = useRouteError()
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'This page could not be loaded.'
  return (
    <div className="container narrow center-page">
      <h1>Something went wrong</h1>
      <p className="muted">{message}</p>
      <div className="row-gap">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="btn btn--secondary">
          Go home
        </Link>
      </div>
    </div>
  )
}
