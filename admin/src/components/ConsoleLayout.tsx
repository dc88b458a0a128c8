import { Layout, type LayoutProps } from 'react-admin'
import { IdleSignOut } from '../signIn/IdleSignOut'

/** react-admin's layout, with the idle sign-out running while someone is signed in. */
export function ConsoleLayout(props: LayoutProps) {
  return (
    <>
      <IdleSignOut />
      <Layout {...props} />
    </>
  )
}
