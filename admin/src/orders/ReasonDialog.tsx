import type { ReactNode } from 'react'
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField as MuiTextField,
} from '@mui/material'

type Color = 'primary' | 'success' | 'warning' | 'error'

/**
 * The one dialog of the order actions that ask why (cancel, mark, refund, waive, retry,
 * correct): what the action does, its own fields, the reason that is audited, and the button.
 */
export function ReasonDialog(props: {
  open: boolean
  onClose: () => void
  title: string
  body: string
  /** Above the body (a warning of what the action costs). */
  notice?: ReactNode
  /** Between the body and the reason (an amount, a confirmation number). */
  children?: ReactNode
  reasonLabel: string
  reason: string
  onReason: (value: string) => void
  reasonRequired?: boolean
  reasonHint?: string
  reasonAutoFocus?: boolean
  dismissLabel: string
  confirmLabel: string
  confirmColor: Color
  confirmDisabled: boolean
  onConfirm: () => void
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        {props.notice}
        <DialogContentText>{props.body}</DialogContentText>
        {props.children}
        <MuiTextField
          autoFocus={props.reasonAutoFocus ?? true}
          fullWidth
          required={props.reasonRequired}
          margin="normal"
          label={props.reasonLabel}
          helperText={props.reasonHint}
          value={props.reason}
          onChange={(event) => props.onReason(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 255 } }}
        />
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={props.onClose}>{props.dismissLabel}</MuiButton>
        <MuiButton
          variant="contained"
          color={props.confirmColor}
          disabled={props.confirmDisabled}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </MuiButton>
      </DialogActions>
    </Dialog>
  )
}
