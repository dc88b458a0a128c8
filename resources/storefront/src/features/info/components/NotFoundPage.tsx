import { Link } from 'react-router-dom'

export function NotFoundPage() {
  return (
    <div className="container narrow center-page">
      <p className="eyebrow">404</p>
      <h1>This page sold out</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <div className="row-gap center">
        <Link to="/shop" className="btn btn--primary">
          Browse drops
        </Link>
        <Link to="/" className="btn btn--secondary">
          Home
        </Link>
      </div>
    </div>
  )
}
