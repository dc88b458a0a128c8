import { useState, type FormEvent } from 'react'
import { ApiError } from '../../../shared/api/client'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { usePresentCode } from '../api/usePresentCode'

type Props = {
  token: string
  onPassed: () => void
  /** Back to the password: the sign-in timed out (with why) or the buyer cancelled. */
  onRestart: (message?: string) => void
}

/** The second step of signing in: the 6-digit code of the buyer's authenticator app. */
export function CodeStep({ token, onPassed, onRestart }: Props) {
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const present = usePresentCode()
  const ready = kind === 'totp' ? /^\d{6}$/.test(code) : code.trim().length > 0

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!ready || present.pending) return
    setError(null)
    try {
      await present.run(token, code.trim(), kind)
      onPassed()
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) {
        onRestart('Your sign-in timed out. Enter your e-mail and password again.')
        return
      }
      setError(failure instanceof ApiError ? failure.message : 'That code did not work.')
      setCode('')
    }
  }

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Enter your code</h1>
        <p className="muted">
          {kind === 'totp'
            ? 'Open your authenticator app and type the 6-digit code it shows for Dropslot.'
            : 'Type one of the recovery codes you saved when you turned on two-step sign-in. Each works once.'}
        </p>
        <Field
          label={kind === 'totp' ? 'Authentication code' : 'Recovery code'}
          autoComplete={kind === 'totp' ? 'one-time-code' : 'off'}
          inputMode={kind === 'totp' ? 'numeric' : 'text'}
          value={code}
          error={error}
          onValue={(value) =>
            setCode(kind === 'totp' ? value.replace(/\D/g, '').slice(0, 6) : value.slice(0, 32))
          }
          required
        />
        <Button type="submit" block disabled={!ready || present.pending}>
          {present.pending ? 'Checking...' : 'Verify'}
        </Button>
        <div className="auth-card__row">
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={() => {
              setKind(kind === 'totp' ? 'recovery' : 'totp')
              setCode('')
              setError(null)
            }}
          >
            {kind === 'totp' ? 'Use a recovery code' : 'Use the authenticator app'}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => onRestart()}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  )
}
