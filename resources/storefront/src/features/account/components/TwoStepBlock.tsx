import { useState, type FormEvent } from 'react'
import type { UserInfo } from '@shared/api/contract'
import { ApiError } from '../../../shared/api/client'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { useEnrolAuthenticator } from '../api/useEnrolAuthenticator'
import { useConfirmAuthenticator } from '../api/useConfirmAuthenticator'
import { useRemoveAuthenticator } from '../api/useRemoveAuthenticator'

type Enrolment = { secret: string; otpauthUrl: string }

const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret

/**
 * Two-step sign-in: a code from an authenticator app after the password, so a password leaked
 * elsewhere does not open this account. Turned on with a first code, off with a current one.
 */
export function TwoStepBlock({ user }: { user: UserInfo }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const [turningOff, setTurningOff] = useState(false)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const enrol = useEnrolAuthenticator()
  const confirm = useConfirmAuthenticator()
  const remove = useRemoveAuthenticator()

  const fail = (failure: unknown) => {
    setError(failure instanceof ApiError ? failure.message : 'Something went wrong.')
    setCode('')
  }

  async function start() {
    setError(null)
    try {
      setEnrolment(await enrol.run())
    } catch (failure) {
      fail(failure)
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setError(null)
    try {
      if (turningOff) {
        await remove.run(code)
        setTurningOff(false)
      } else {
        const answer = await confirm.run(code)
        setRecoveryCodes('recoveryCodes' in answer ? (answer.recoveryCodes ?? null) : null)
        setEnrolment(null)
      }
      setCode('')
    } catch (failure) {
      fail(failure)
    }
  }

  const codeForm = (action: string) => (
    <form className="stack" onSubmit={submit} noValidate>
      <Field
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        error={error}
        onValue={(value) => setCode(value.replace(/\D/g, '').slice(0, 6))}
        required
      />
      <div className="actions actions--end">
        <Button
          variant="ghost"
          onClick={() => {
            setEnrolment(null)
            setTurningOff(false)
            setError(null)
          }}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={!/^\d{6}$/.test(code)}>
          {action}
        </Button>
      </div>
    </form>
  )

  return (
    <section className="card block" aria-labelledby="two-step-sign-in">
      <header className="block__header">
        <h2 id="two-step-sign-in">Two-step sign-in</h2>
      </header>
      {recoveryCodes && (
        <div className="stack">
          <p>
            Two-step sign-in is on. Keep these recovery codes somewhere safe: each one signs you in
            once if you lose your phone. They are shown only now.
          </p>
          <ul aria-label="Recovery codes" className="recovery-codes">
            {recoveryCodes.map((item) => (
              <li key={item}>
                <code>{item}</code>
              </li>
            ))}
          </ul>
          <Button variant="secondary" onClick={() => setRecoveryCodes(null)}>
            I have saved them
          </Button>
        </div>
      )}
      {!recoveryCodes && enrolment && (
        <div className="stack">
          <p>
            In your authenticator app, add an account with this key (or open the link on your
            phone), then type the 6-digit code it shows.
          </p>
          <p>
            Key: <code aria-label="Authenticator key">{grouped(enrolment.secret)}</code>{' '}
            <a href={enrolment.otpauthUrl}>Open in authenticator app</a>
          </p>
          {codeForm('Turn on')}
        </div>
      )}
      {!recoveryCodes && !enrolment && (
        <div className="stack">
          <p className="muted">
            {user.twoStep
              ? 'On: signing in asks for a code from your authenticator app after your password.'
              : 'Off: your password alone signs you in. Turn this on so a leaked password is not enough.'}
          </p>
          {turningOff ? (
            codeForm('Turn off')
          ) : (
            <div className="actions">
              {user.twoStep ? (
                <Button variant="secondary" onClick={() => setTurningOff(true)}>
                  Turn off two-step sign-in
                </Button>
              ) : (
                <Button onClick={start} disabled={enrol.pending}>
                  Turn on two-step sign-in
                </Button>
              )}
            </div>
          )}
          {!turningOff && error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </section>
  )
}
