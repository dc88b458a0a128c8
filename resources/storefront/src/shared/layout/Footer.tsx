import { Link } from 'react-router-dom'
import { getConfig } from '../config'
import { Logo } from './Header'

export function Footer() {
  const { supportEmail } = getConfig()
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p>
            Release-day checkout, done for you. We only charge our fee when the retailer confirms
            your order.
          </p>
        </div>
        <nav aria-label="Product">
          <h2>Product</h2>
          <Link to="/shop">Shop</Link>
          <Link to="/how-it-works">How it works</Link>
          <Link to="/testimonials">Testimonials</Link>
          <Link to="/releases">Release results</Link>
          <Link to="/integrations">Integrations</Link>
        </nav>
        <nav aria-label="Help">
          <h2>Help</h2>
          <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          <Link to="/refund-policy">Refund policy</Link>
          <Link to="/terms">Terms &amp; privacy</Link>
        </nav>
      </div>
      <div className="container site-footer__legal">
        <span>© {new Date().getFullYear()} Dropslot. All rights reserved.</span>
        <span>Prices shown are service fees and do not include the item.</span>
      </div>
    </footer>
  )
}
