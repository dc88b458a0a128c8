import { Field } from './Field'
import { digitsOnly, formatCardNumber, formatExpiry, type CardFields as Value } from '../lib/cards'

/**
 * Card Number, MM/YY (slash added after two digits) and CVV (max 4). The number takes what people
 * type or paste (spaces, dashes) and shows it in groups of 4 as they type; it has no length limit
 * of the browser's, which would cut a pasted number short into another one.
 */
export function CardFields({
  value,
  onChange,
  numberHint,
  required = true,
}: {
  value: Value
  onChange: (value: Value) => void
  numberHint?: string
  required?: boolean
}) {
  return (
    <div className="stack">
      <Field
        label="Card Number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={value.number}
        hint={numberHint}
        onValue={(number) =>
          onChange({
            ...value,
            number: formatCardNumber(number),
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
