import { type FormEvent, useState } from 'react'
import { Alert, Box, Button, CircularProgress, Stack, TextField } from '@mui/material'
import { factorApi, SignInExpired } from './factorApi'

type Props = {
  token: string
  /** Whether the account has recovery codes left to offer instead of the authenticator. */
  allowRecovery: boolean
  onPassed: (recoveryCodes?: string[]) => void
  onExpired: (message: string) => void
  onCancel: () => void
}

/**
 * The authenticator's 6-digit code (or, when the device is lost, a recovery code). A refusal
 * (wrong code, a code used already, too many tries) is shown in the server's own words.
 */
export function CodeForm({ token, allowRecovery, onPassed, onExpired, onCancel }: Props) {
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const ready = mode === 'totp' ? /^\d{6}$/.test(code) : code.trim().length > 0

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy || !ready) return
    setBusy(true)
    setError(null)
    try {
      const result: { recoveryCodes?: string[] } =
        mode === 'totp'
          ? await factorApi.totp(token, code)
          : await factorApi.recovery(token, code.trim())
      onPassed(result.recoveryCodes)
    } catch (failure) {
      if (failure instanceof SignInExpired) return onExpired(failure.message)
      setError((failure as Error).message)
      setCode('')
    } finally {
      setBusy(false)
    }
  }

  const switchMode = () => {
    setMode(mode === 'totp' ? 'recovery' : 'totp')
    setCode('')
    setError(null)
  }

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={2}>
        {mode === 'totp' ? (
          <TextField
            key="totp"
            label="Authentication code"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            autoFocus
            fullWidth
            autoComplete="one-time-code"
            helperText="The 6-digit code your authenticator app shows now"
            slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]{6}', maxLength: 6 } }}
          />
        ) : (
          <TextField
            key="recovery"
            label="Recovery code"
            value={code}
            onChange={(event) => setCode(event.target.value.slice(0, 32))}
            autoFocus
            fullWidth
            autoComplete="off"
            helperText="One of the recovery codes you saved, like ABCDE-FGHIJ. Each works once."
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
          />
        )}
        {error && <Alert severity="error">{error}</Alert>}
        <Button type="submit" variant="contained" fullWidth disabled={busy || !ready}>
          {busy ? <CircularProgress size={19} thickness={3} /> : 'Verify'}
        </Button>
        {(allowRecovery || mode === 'recovery') && (
          <Button onClick={switchMode} size="small">
            {mode === 'totp' ? 'Use a recovery code' : 'Use the authenticator app instead'}
          </Button>
        )}
        <Button onClick={onCancel} size="small" color="inherit">
          Cancel
        </Button>
      </Stack>
    </Box>
  )
}
