import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { returnPath, withReturnPath } from '../../../shared/lib/returnTo'
import { useLogin } from '../api/useLogin'
import { session } from '../../../shared/session/session'
import { useAlert } from '../../../shared/ui/alert'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { ApiError } from '../../../shared/api/client'
import { CodeStep } from './CodeStep'

type SignedIn = { token: string; email: string; name: string; uuid: string }

export function LoginPage() {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [waiting, setWaiting] = useState<SignedIn | null>(null)
  const login = useLogin()
  const alert = useAlert()
  const navigate = useNavigate()
  const next = returnPath(useLocation().search)

  async function finish(user: SignedIn) {
    await navigate(next ?? '/shop')
    session.set(user)
  }

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
      // An account with an authenticator app: its code before anything opens.
      if ('secondFactor' in answer && answer.secondFactor === 'enrol') {
        alert.show('This staff account has no authenticator yet: add one at /admin first.')
      } else if ('secondFactor' in answer && answer.secondFactor) setWaiting(user)
      else await finish(user)
    } catch (error) {
      alert.show(error instanceof ApiError ? error.message : 'Email or password is incorrect.')
    }
  }

  if (waiting) {
    return (
      <CodeStep
        token={waiting.token}
        onPassed={() => finish(waiting)}
        onRestart={(message) => {
          setWaiting(null)
          setPassword('')
          if (message) alert.show(message)
        }}
      />
    )
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
