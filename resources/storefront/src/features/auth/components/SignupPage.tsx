import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { returnPath, withReturnPath } from '../../../shared/lib/returnTo'
import { useRegister } from '../api/useRegister'
import { session } from '../../../shared/session/session'
import { useAlert } from '../../../shared/ui/alert'
import { Field } from '../../../shared/ui/Field'
import { Button } from '../../../shared/ui/Button'
import { SplitLayout } from '../../../shared/layout/SplitLayout'
import { isValidEmail } from '../../../shared/lib/format'
import { formatPhone, isValidPhone, phoneForServer } from '@shared/phone'
import { ApiError } from '../../../shared/api/client'

const FORM_ERROR = 'Please fill out the form correctly.'

export function SignupPage() {
  const [form, setForm] = useState({
    email: '',
    password: '',
    phone: '',
    firstName: '',
    lastName: '',
  })
  const [invalid, setInvalid] = useState(false)
  const register = useRegister()
  const alert = useAlert()
  const navigate = useNavigate()
  const next = returnPath(useLocation().search)
  const set = (field: keyof typeof form) => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }))

  const problems = {
    email: !isValidEmail(form.email) ? 'Enter a valid e-mail address.' : null,
    password: form.password.length < 8 ? 'Minimum 8 characters' : null,
    phone: isValidPhone(form.phone) ? null : 'Enter your phone number.',
    firstName: !form.firstName.trim() ? 'Enter your first name.' : null,
    lastName: !form.lastName.trim() ? 'Enter your last name.' : null,
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    alert.clear()
    if (Object.values(problems).some(Boolean)) {
      setInvalid(true)
      alert.show(FORM_ERROR)
      return
    }
    const firstName = form.firstName.trim()
    const lastName = form.lastName.trim()
    try {
      const answer = await register.run({
        email: form.email.trim(),
        password: form.password,
        phone: phoneForServer(form.phone),
        firstName,
        lastName,
        name: `${firstName} ${lastName}`,
      })
      if (!answer.token || !answer.user) throw new Error('no token')
      session.set({
        token: answer.token,
        email: answer.user.email,
        name: answer.user.name,
        uuid: answer.user.uuid,
      })
      await navigate(withReturnPath('/addBilling', next))
    } catch (error) {
      alert.show(error instanceof Error ? error.message : FORM_ERROR)
      if (error instanceof ApiError && Object.keys(error.errors).length) setInvalid(true)
    }
  }

  const show = (field: keyof typeof problems) => (invalid ? problems[field] : null)

  return (
    <SplitLayout step="Step 1 of 3" eyebrow="Secure your first slot">
      <form onSubmit={submit} noValidate className="stack">
        <div>
          <h1>Create your account</h1>
          <p className="muted">
            Already have one? <Link to={withReturnPath('/login', next)}>Log in</Link>
          </p>
        </div>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          onValue={set('email')}
          error={show('email')}
          required
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onValue={set('password')}
          hint="Minimum 8 characters"
          error={show('password')}
          required
          minLength={8}
        />
        <Field
          label="Phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={form.phone}
          onValue={(value) => set('phone')(formatPhone(value))}
          error={show('phone')}
          required
        />
        <div className="grid-2">
          <Field
            label="First Name"
            autoComplete="given-name"
            maxLength={15}
            value={form.firstName}
            onValue={set('firstName')}
            error={show('firstName')}
            required
          />
          <Field
            label="Last Name"
            autoComplete="family-name"
            maxLength={20}
            value={form.lastName}
            onValue={set('lastName')}
            error={show('lastName')}
            required
          />
        </div>
        <Button type="submit" block disabled={register.pending}>
          {register.pending ? 'Creating...' : 'Create account'}
        </Button>
        <p className="fine-print">
          By creating an account you agree to our <Link to="/terms">Terms</Link> and{' '}
          <Link to="/refund-policy">Refund policy</Link>.
        </p>
      </form>
    </SplitLayout>
  )
}
