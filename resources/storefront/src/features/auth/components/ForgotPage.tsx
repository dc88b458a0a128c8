import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { useForgotPassword } from '../api/useForgotPassword'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { isValidEmail } from '../../../shared/lib/format'

export function ForgotPage() {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const forgot = useForgotPassword()

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!isValidEmail(email)) {
      setError('Please enter a valid e-mail address.')
      return
    }
    setError(null)
    try {
      const answer = await forgot.run(email.trim())
      setSent(answer.message)
    } catch (caught) {
      setError((caught as Error).message)
    }
  }

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Forgot your password?</h1>
        {sent ? (
          <div className="notice notice--success" role="status">
            {sent}
          </div>
        ) : (
          <>
            <p className="muted">
              Enter the e-mail of your account and we will send you a link to choose a new password.
            </p>
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onValue={setEmail}
              error={error}
              required
            />
            <Button type="submit" block disabled={forgot.pending}>
              {forgot.pending ? 'Sending...' : 'Send reset link'}
            </Button>
          </>
        )}
        <p className="auth-card__switch">
          Remembered it? <Link to="/login">Back to login</Link>
        </p>
      </form>
    </div>
  )
}
