import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string
  hint?: ReactNode
  error?: string | null
  onValue: (value: string) => void
  inputRef?: React.Ref<HTMLInputElement>
}

/** A labelled text input with its hint and error tied to it for screen readers. */
export function Field({
  label,
  hint,
  error,
  onValue,
  inputRef,
  className,
  id,
  ...input
}: FieldProps) {
  const autoId = useId()
  const fieldId = id ?? autoId
  const describedBy = [hint ? `${fieldId}-hint` : null, error ? `${fieldId}-error` : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        ref={inputRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onValue(event.target.value)}
        {...input}
      />
      {hint ? (
        <p className="field__hint" id={`${fieldId}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${fieldId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> & {
  label: string
  options: { value: string; label: string }[]
  placeholder?: string
  error?: string | null
  onValue: (value: string) => void
  hideLabel?: boolean
}

export function SelectField({
  label,
  options,
  placeholder,
  error,
  onValue,
  className,
  id,
  hideLabel,
  ...select
}: SelectProps) {
  const autoId = useId()
  const fieldId = id ?? autoId
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={fieldId} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </label>
      <div className="select">
        <select
          id={fieldId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(event) => onValue(event.target.value)}
          {...select}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="field__error" id={`${fieldId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
