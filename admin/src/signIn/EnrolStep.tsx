import { useEffect, useState } from 'react'
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material'
import { CodeForm } from './CodeForm'
import { PasskeyButton } from './PasskeyButton'
import { type Enrolment, factorApi, groupedSecret, SignInExpired } from './factorApi'

type Props = {
  token: string
  onPassed: (recoveryCodes?: string[]) => void
  onExpired: (message: string) => void
  onCancel: () => void
}

/**
 * A staff account without an authenticator adds one before the console opens: a QR code of the
 * otpauth:// URI, the secret to type in by hand, and the first code, which confirms it.
 */
export function EnrolStep({ token, onPassed, onExpired, onCancel }: Props) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [qrCode, setQrCode] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    factorApi
      .enrol(token)
      .then(async (answer) => {
        if (!current) return
        setEnrolment(answer)
        // The QR code library loads only here, for the few who enrol.
        const { toDataURL } = await import('qrcode')
        const image = await toDataURL(answer.otpauthUrl, { margin: 1, width: 200 })
        if (current) setQrCode(image)
      })
      .catch((failure: Error) => {
        if (!current) return
        if (failure instanceof SignInExpired) onExpired(failure.message)
        else setError(failure.message)
      })
    return () => {
      current = false
    }
  }, [token, onExpired])

  if (error) {
    return (
      <Stack spacing={2}>
        <Alert severity="error">{error}</Alert>
        <Button onClick={onCancel} color="inherit">
          Cancel
        </Button>
      </Stack>
    )
  }
  if (!enrolment) return <LinearProgress aria-label="Preparing your authenticator key" />

  return (
    <Stack spacing={2}>
      <Typography variant="body2">
        Scan this QR code with the authenticator app on your phone, then enter the 6-digit code it
        shows for {enrolment.issuer}.
      </Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center', minHeight: 200 }}>
        {qrCode ? (
          <img src={qrCode} width={200} height={200} alt="QR code for your authenticator app" />
        ) : null}
      </Box>
      <Box>
        <Typography id="totp-secret-label" variant="caption" color="text.secondary">
          Cannot scan it? Type this key in instead
        </Typography>
        <Typography
          component="code"
          aria-labelledby="totp-secret-label"
          sx={{ display: 'block', fontFamily: 'monospace', fontSize: 15, wordSpacing: 2 }}
        >
          {groupedSecret(enrolment.secret)}
        </Typography>
      </Box>
      <CodeForm
        token={token}
        allowRecovery={false}
        onPassed={onPassed}
        onExpired={onExpired}
        onCancel={onCancel}
      />
      <PasskeyButton token={token} mode="add" onPassed={onPassed} onExpired={onExpired} />
    </Stack>
  )
}
