import { useEffect, useState } from 'react'
import { Dialog, DialogContent, DialogTitle, Typography } from '@mui/material'
import { session } from '../session'
import { CodeForm } from './CodeForm'
import { PasskeyButton } from './PasskeyButton'
import { onStepUp } from './stepUp'

/**
 * Asks for the authenticator's code again when an action needs a factor from the last five
 * minutes; the action then goes ahead by itself.
 */
export function StepUpDialog() {
  const [pending, setPending] = useState<((passed: boolean) => void) | null>(null)

  useEffect(() => {
    onStepUp(() => new Promise<boolean>((resolve) => setPending(() => resolve)))
    return () => onStepUp(null)
  }, [])

  const finish = (passed: boolean) => {
    pending?.(passed)
    setPending(null)
  }
  const token = session.token()
  if (!pending || !token) return null
  return (
    <Dialog open onClose={() => finish(false)} aria-labelledby="step-up-title">
      <DialogTitle id="step-up-title">Confirm it is you</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          This action shows card data or moves money or access. Enter the current code from your
          authenticator app to go ahead.
        </Typography>
        <PasskeyButton
          token={token}
          mode="use"
          onPassed={() => finish(true)}
          onExpired={() => finish(false)}
        />
        <CodeForm
          token={token}
          allowRecovery
          onPassed={() => finish(true)}
          onExpired={() => finish(false)}
          onCancel={() => finish(false)}
        />
      </DialogContent>
    </Dialog>
  )
}
