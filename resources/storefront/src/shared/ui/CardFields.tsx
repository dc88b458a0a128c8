import { Field } from './Field'
import { digitsOnly, formatCardNumber, formatExpiry, type CardFields as Value } from '../lib/cards'

/**
 * Card Number, MM/YY (slash added after two digits) and CVV (max 4). `grouped` shows the number in
 * groups of 4 (max 19 with spaces, the sign-up screen); otherwise digits only, max 16.
 */
export function CardFields({
  value,
  onChange,
  grouped = false,
  numberHint,
  required = true,
}: {
  value: Value
  onChange: (value: Value) => void
  grouped?: boolean
  numberHint?: string
  required?: boolean
}) {
  return (
    <div className="stack">
      <Field
        label="Card Number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder={grouped ? '4242 4242 4242 4242' : '4242424242424242'}
        maxLength={grouped ? 19 : 16}
        value={value.number}
        hint={numberHint}
        onValue={(number) =>
          onChange({
            ...value,
            number: grouped ? formatCardNumber(number) : digitsOnly(number).slice(0, 16),
          })
        }
        required={required}
      />
      <div className="grid-2">
        <Field
          label="MM/YY"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          maxLength={5}
          value={value.expiry}
          onValue={(expiry) => onChange({ ...value, expiry: formatExpiry(expiry, value.expiry) })}
          required={required}
        />
        <Field
          label="CVV"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={value.cvv}
          onValue={(cvv) => onChange({ ...value, cvv: digitsOnly(cvv).slice(0, 4) })}
          required={required}
        />
      </div>
    </div>
  )
}
