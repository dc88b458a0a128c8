import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { returnPath, withReturnPath } from '../../../shared/lib/returnTo'
import { useLogin } from '../api/useLogin'
import { session } from '../../../shared/session/session'
import { useAlert } from '../../../shared/ui/alert'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { ApiError } from '../../../shared/api/client'

export function LoginPage() {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const login = useLogin()
  const alert = useAlert()
  const navigate = useNavigate()
  const next = returnPath(useLocation().search)

  async function submit(event: FormEvent) {
    event.preventDefault()
    alert.clear()
    try {
      const answer = await login.run(email.trim(), password)
      if (!answer.token || !answer.user) {
        alert.show('Login Failure')
        return
      }
      const user = {
        token: answer.token,
        email: answer.user.email,
        name: answer.user.name,
        uuid: answer.user.uuid,
      }
      await navigate(next ?? '/shop')
      session.set(user)
    } catch (error) {
      alert.show(error instanceof ApiError ? error.message : 'Email or password is incorrect.')
    }
  }

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Welcome back</h1>
        <p className="muted">Log in to manage your slots, profiles and orders.</p>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onValue={setEmail}
          required
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          required
        />
        <div className="auth-card__row">
          <Link to="/forgot">Forgot Password?</Link>
        </div>
        <Button type="submit" block disabled={login.pending}>
          {login.pending ? 'Logging in...' : 'Log in'}
        </Button>
        <p className="auth-card__switch">
          New to Dropslot? <Link to={withReturnPath('/signup', next)}>Create an account</Link>
        </p>
      </form>
    </div>
  )
}
