import { useState, type FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { useResetPassword } from '../api/useResetPassword'
import { Field } from '../../../shared/ui/Field'
import { Button, ButtonLink } from '../../../shared/ui/Button'

export function ResetPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const reset = useResetPassword()

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (password.length < 8) return setError('Password must be at least 8 characters.')
    if (password !== confirm) return setError('Passwords do not match.')
    setError(null)
    try {
      const answer = await reset.run(token, password, confirm)
      setDone(answer.message)
    } catch (caught) {
      setError((caught as Error).message)
    }
  }

  if (!token) {
    return (
      <div className="auth-page">
        <div className="card auth-card">
          <h1>Reset link needed</h1>
          <p className="muted">Open the link from the e-mail we sent you, or ask for a new one.</p>
          <ButtonLink to="/forgot" block>
            Ask for a reset link
          </ButtonLink>
        </div>
      </div>
    )
  }

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Choose a new password</h1>
        {done ? (
          <>
            <div className="notice notice--success" role="status">
              {done}
            </div>
            <ButtonLink to="/login" block>
              Log in
            </ButtonLink>
          </>
        ) : (
          <>
            <Field
              label="New password"
              type="password"
              autoComplete="new-password"
              hint="Minimum 8 characters"
              value={password}
              onValue={setPassword}
              required
            />
            <Field
              label="Confirm password"
              type="password"
              autoComplete="new-password"
              value={confirm}
              onValue={setConfirm}
              error={error}
              required
            />
            <Button type="submit" block disabled={reset.pending}>
              {reset.pending ? 'Saving...' : 'Save password'}
            </Button>
            <p className="auth-card__switch">
              <Link to="/forgot">Ask for a new link</Link>
            </p>
          </>
        )}
      </form>
    </div>
  )
}
