import { useEffect } from 'react'
import { useNavigate } from 'react-router-dom'
import { useLogout } from '../api/useLogout'
import { PageLoading } from '../../../shared/ui/Spinner'

/** Not a screen: clears the session, revokes the token and goes to /login. */
export function LogoutPage() {
  const logout = useLogout()
  const navigate = useNavigate()
  useEffect(() => {
    let active = true
    void logout().then(() => {
      if (active) void navigate('/login', { replace: true })
    })
    return () => {
      active = false
    }
  }, [logout, navigate])
  return <PageLoading />
}
