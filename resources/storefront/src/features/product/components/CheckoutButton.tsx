import { useRef } from 'react'
import { Button } from '../../../shared/ui/Button'

export type CheckoutPhase =
  | 'idle'
  | 'confirm'
  | 'securing'
  | 'secured'
  | 'redirecting'
  | 'duplicate'
  | 'duplicateCard'
  | 'error'

const LABELS: Record<CheckoutPhase, string> = {
  idle: 'Checkout',
  confirm: 'Confirm',
  securing: 'Securing...',
  secured: 'Secured',
  redirecting: 'Redirecting...',
  duplicate: 'Select New Profile',
  // A draw counts the card on file: another profile cannot help, so the button does not say so.
  duplicateCard: 'Card Already Entered',
  error: 'Error. Refresh',
}

/** On a draw product the same steps enter the draw. */
const DRAW_LABELS: Partial<Record<CheckoutPhase, string>> = {
  idle: 'Enter draw',
  securing: 'Entering...',
  secured: 'Entered',
}

/** The Checkout button of spec section 4, with Cancel beside Confirm. */
export function CheckoutButton({
  phase,
  disabled,
  draw,
  onCheckout,
  onConfirm,
  onCancel,
}: {
  phase: CheckoutPhase
  disabled?: boolean
  draw?: boolean
  onCheckout: () => void
  onConfirm: () => void
  onCancel: () => void
}) {
  const variant =
    phase === 'secured' || phase === 'redirecting'
      ? 'success'
      : phase === 'error' || phase === 'duplicate' || phase === 'duplicateCard'
        ? 'danger'
        : phase === 'confirm'
          ? 'accent'
          : 'primary'
  const busy = phase === 'securing' || phase === 'secured' || phase === 'redirecting'
  const main = useRef<HTMLButtonElement>(null)
  return (
    <div className="checkout-actions">
      <Button
        ref={main}
        className={`checkout-btn btn--${variant}`}
        variant={variant === 'accent' ? 'primary' : variant}
        block
        busy={busy}
        disabled={
          disabled ||
          busy ||
          phase === 'duplicate' ||
          phase === 'duplicateCard' ||
          phase === 'error'
        }
        onClick={phase === 'confirm' ? onConfirm : onCheckout}
        aria-live="polite"
      >
        {(draw && DRAW_LABELS[phase]) || LABELS[phase]}
      </Button>
      {phase === 'confirm' ? (
        <Button
          variant="secondary"
          onClick={() => {
            onCancel()
            // Cancel disappears: keyboard and screen-reader users stay on the Checkout button.
            main.current?.focus()
          }}
        >
          Cancel
        </Button>
      ) : null}
    </div>
  )
}
