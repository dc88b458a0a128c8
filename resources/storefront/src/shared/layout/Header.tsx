import { useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router-dom'
import { useSession } from '../session/session'
import { IconClose, IconMenu } from '../ui/icons'

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Dropslot home">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="9" fill="#0b0b0f" />
        <path d="M17.5 5 9 18h6l-1.5 9L23 14h-6z" fill="#c6ff3d" />
      </svg>
      <span>dropslot</span>
    </Link>
  )
}

const NAV = [
  { to: '/shop', label: 'Shop' },
  { to: '/how-it-works', label: 'How it works' },
  { to: '/testimonials', label: 'Testimonials' },
]

export function Header() {
  const user = useSession()
  const location = useLocation()
  // The menu stays open on the page it was opened on: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === location.pathname

  const account = user ? (
    <>
      <NavLink to="/user/account" className="nav-link">
        Account
      </NavLink>
      <Link to="/logout" className="btn btn--secondary btn--sm">
        Log out
      </Link>
    </>
  ) : (
    <>
      <NavLink to="/login" className="nav-link">
        Log in
      </NavLink>
      <Link to="/signup" className="btn btn--primary btn--sm">
        Sign up
      </Link>
    </>
  )

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Logo />
        <nav className="site-nav" aria-label="Main">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className="nav-link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="site-header__account">{account}</div>
        <button
          type="button"
          className="icon-btn site-header__menu"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpenOn(open ? null : location.pathname)}
        >
          {open ? <IconClose /> : <IconMenu />}
        </button>
      </div>
      <nav
        id="mobile-menu"
        className={`mobile-menu ${open ? 'mobile-menu--open' : ''}`}
        aria-label="Mobile"
        hidden={!open}
      >
        {NAV.map((item) => (
          <NavLink key={item.to} to={item.to} className="mobile-menu__link">
            {item.label}
          </NavLink>
        ))}
        {user ? (
          <>
            <NavLink to="/user/account" className="mobile-menu__link">
              Account
            </NavLink>
            <NavLink to="/user/orders" className="mobile-menu__link">
              Recent orders
            </NavLink>
            <Link to="/logout" className="mobile-menu__link">
              Log out
            </Link>
          </>
        ) : (
          <>
            <NavLink to="/login" className="mobile-menu__link">
              Log in
            </NavLink>
            <Link to="/signup" className="btn btn--primary btn--block">
              Sign up
            </Link>
          </>
        )}
      </nav>
    </header>
  )
}
