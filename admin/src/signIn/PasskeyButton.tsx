import { useState } from 'react'
import { Alert, Button, Stack } from '@mui/material'
import KeyIcon from '@mui/icons-material/Key'
import { factorApi, SignInExpired } from './factorApi'

type Props = {
  token: string
  /** `add`: create a new passkey (enrolment); `use`: sign in with one the account has. */
  mode: 'add' | 'use'
  onPassed: (recoveryCodes?: string[]) => void
  onExpired: (message: string) => void
}

/** The browser's own passkey prompt (Touch ID, Windows Hello, a phone, a security key). */
export function PasskeyButton({ token, mode, onPassed, onExpired }: Props) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const run = async () => {
    setBusy(true)
    setError(null)
    try {
      // The WebAuthn helpers load only here, for those who use a passkey.
      const { startAuthentication, startRegistration } = await import('@simplewebauthn/browser')
      if (mode === 'add') {
        const optionsJSON = await factorApi.passkeyRegistrationOptions(token)
        const credential = await startRegistration({ optionsJSON })
        const answer = await factorApi.registerPasskey(token, credential)
        onPassed(answer.recoveryCodes)
      } else {
        const optionsJSON = await factorApi.passkeyOptions(token)
        const credential = await startAuthentication({ optionsJSON })
        await factorApi.passkey(token, credential)
        onPassed()
      }
    } catch (failure) {
      if (failure instanceof SignInExpired) return onExpired(failure.message)
      const name = (failure as Error).name
      setError(
        name === 'NotAllowedError'
          ? 'The passkey prompt was closed or timed out. Try again.'
          : (failure as Error).message
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack spacing={1}>
      <Button variant="outlined" startIcon={<KeyIcon />} onClick={run} disabled={busy} fullWidth>
        {mode === 'add' ? 'Add a passkey instead' : 'Use a passkey'}
      </Button>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  )
}
