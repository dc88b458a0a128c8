import { useId, useState, type FormEvent } from 'react'
import { useAddEmail } from '../api/useAddEmail'
import { isValidEmail } from '../../../shared/lib/format'

/** The newsletter box: the button reads Sign Up, then Signed Up after success. */
export function Newsletter() {
  const id = useId()
  const [email, setEmail] = useState('')
  const [done, setDone] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const addEmail = useAddEmail()

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!isValidEmail(email)) {
      setError('Please enter a valid e-mail address.')
      return
    }
    setError(null)
    try {
      await addEmail.run(email.trim())
      setDone(true)
    } catch (caught) {
      setError((caught as Error).message)
    }
  }

  return (
    <section className="newsletter" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`}>Never miss a drop</h2>
        <p>Release calendars, raffle dates and early slots, once a week. No spam.</p>
      </div>
      <form className="newsletter__form" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-email`} className="sr-only">
          Email address
        </label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setEmail(event.target.value)
            setDone(false)
          }}
          disabled={done}
        />
        <button type="submit" className="btn btn--accent" disabled={addEmail.pending || done}>
          {done ? 'Signed Up' : 'Sign Up'}
        </button>
        {error ? (
          <p className="newsletter__error" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : null}
        {done ? (
          <p className="newsletter__ok" role="status">
            You&apos;re on the list. Watch your inbox on drop week.
          </p>
        ) : null}
      </form>
    </section>
  )
}
