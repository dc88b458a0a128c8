import type { ReactNode } from 'react'
import { NavLink } from 'react-router-dom'

/** The account area's side menu: Overview, Recent Orders, Profiles. */
export function AccountLayout({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="container account">
      <nav className="account__menu" aria-label="Account">
        <NavLink to="/user/account" end>
          Overview
        </NavLink>
        <NavLink
          to="/user/orders"
          className={({ isActive }) =>
            isActive || location.pathname === '/user/recentOrders' ? 'active' : undefined
          }
        >
          Recent Orders
        </NavLink>
        <NavLink to="/user/profiles">Profiles</NavLink>
      </nav>
      <section className="account__main">
        <div className="page-heading">
          <h1>{title}</h1>
          {actions}
        </div>
        {children}
      </section>
    </div>
  )
}
