import { useCallback, useState } from 'react'
import { Alert, Button, CardContent, CircularProgress, Stack, Typography } from '@mui/material'
import {
  Form,
  Login,
  PasswordInput,
  required,
  TextInput,
  useLogin,
  useNotify,
  useTranslate,
} from 'react-admin'
import { passwordStep, type PendingSignIn } from '../authProvider'
import { CodeForm } from './CodeForm'
import { EnrolStep } from './EnrolStep'
import { PasskeyButton } from './PasskeyButton'
import { factorApi } from './factorApi'
import { RecoveryCodes } from './RecoveryCodes'

type Step =
  | { kind: 'password'; notice?: string }
  | { kind: 'factor'; pending: PendingSignIn }
  | { kind: 'codes'; pending: PendingSignIn; codes: string[] }

const HEADINGS = {
  required: 'Enter your authentication code',
  enrol: 'Add an authenticator',
  codes: 'Save your recovery codes',
}

/**
 * The console's sign-in: e-mail and password, then, for staff, the second factor on the same
 * page (the authenticator's code, a recovery code, or adding an authenticator first). Only a
 * completed sign-in is saved and opens the console.
 */
export function SignInPage() {
  return (
    <Login>
      <SignInSteps />
    </Login>
  )
}

function SignInSteps() {
  const [step, setStep] = useState<Step>({ kind: 'password' })
  const [email, setEmail] = useState('')
  const [loading, setLoading] = useState(false)
  const login = useLogin()
  const notify = useNotify()
  const translate = useTranslate()

  const fail = useCallback(
    (error: unknown) => {
      const message = (error as Error)?.message || 'ra.auth.sign_in_error'
      notify(message, { type: 'error', messageArgs: { _: message } })
    },
    [notify]
  )

  /** The full token is checked (admins only) and saved; the console opens. */
  const finish = useCallback(
    (token: string) => {
      setLoading(true)
      login({ token })
        .catch((error) => {
          fail(error)
          setStep({ kind: 'password' })
        })
        .finally(() => setLoading(false))
    },
    [login, fail]
  )

  const submitPassword = async (values: Record<string, string>) => {
    setLoading(true)
    setEmail(values.username)
    try {
      const answer = await passwordStep(values.username, values.password)
      if ('pending' in answer) {
        setStep({ kind: 'factor', pending: answer.pending })
        setLoading(false)
      } else finish(answer.token)
    } catch (error) {
      fail(error)
      setLoading(false)
    }
  }

  /** Back to the password: the half-finished sign-in's token is revoked first. */
  const cancel = useCallback(async () => {
    if (step.kind === 'factor') await factorApi.cancel(step.pending.token)
    setStep({ kind: 'password' })
  }, [step])

  const expired = useCallback((notice: string) => setStep({ kind: 'password', notice }), [])

  if (step.kind === 'password') {
    return (
      <Form
        onSubmit={submitPassword}
        mode="onChange"
        noValidate
        defaultValues={{ username: email }}
      >
        <CardContent sx={{ width: 300, pb: '16px !important' }}>
          {step.notice && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {step.notice}
            </Alert>
          )}
          <TextInput
            autoFocus
            source="username"
            label={translate('ra.auth.username')}
            autoComplete="username"
            validate={required()}
          />
          <PasswordInput
            source="password"
            label={translate('ra.auth.password')}
            autoComplete="current-password"
            validate={required()}
          />
          <Button
            variant="contained"
            type="submit"
            color="primary"
            disabled={loading}
            fullWidth
            sx={{ mt: 2 }}
          >
            {loading ? <CircularProgress size={19} thickness={3} /> : translate('ra.auth.sign_in')}
          </Button>
        </CardContent>
      </Form>
    )
  }

  const { pending } = step
  const passed = (codes?: string[]) => {
    if (codes?.length) setStep({ kind: 'codes', pending, codes })
    else finish(pending.token)
  }
  const heading = step.kind === 'codes' ? HEADINGS.codes : HEADINGS[pending.secondFactor]
  return (
    <CardContent sx={{ width: 340, pb: '16px !important' }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h1">
          {heading}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Signing in as {pending.email}
        </Typography>
        {step.kind === 'codes' ? (
          <RecoveryCodes codes={step.codes} onSaved={() => finish(pending.token)} />
        ) : pending.secondFactor === 'enrol' ? (
          <EnrolStep
            token={pending.token}
            onPassed={passed}
            onExpired={expired}
            onCancel={cancel}
          />
        ) : (
          <>
            {pending.methods.includes('passkey') && (
              <PasskeyButton
                token={pending.token}
                mode="use"
                onPassed={passed}
                onExpired={expired}
              />
            )}
            {pending.methods.includes('totp') || pending.methods.includes('recovery') ? (
              <>
                <Typography variant="body2">
                  Open the authenticator app on your phone and enter the code it shows for Dropslot.
                </Typography>
                <CodeForm
                  token={pending.token}
                  allowRecovery={pending.methods.includes('recovery')}
                  onPassed={passed}
                  onExpired={expired}
                  onCancel={cancel}
                />
              </>
            ) : null}
          </>
        )}
        {loading && <CircularProgress size={19} thickness={3} sx={{ alignSelf: 'center' }} />}
      </Stack>
    </CardContent>
  )
}
