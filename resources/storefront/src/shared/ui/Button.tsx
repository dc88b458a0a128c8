import type { ButtonHTMLAttributes, Ref } from 'react'
import { Link, type LinkProps } from 'react-router-dom'

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'success'

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>
  variant?: Variant
  block?: boolean
  busy?: boolean
}

export function Button({
  variant = 'primary',
  block,
  busy,
  className,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={`btn btn--${variant} ${block ? 'btn--block' : ''} ${className ?? ''}`}
      aria-busy={busy || undefined}
      {...rest}
    />
  )
}

export function ButtonLink({
  variant = 'primary',
  block,
  className,
  ...rest
}: LinkProps & { variant?: Variant; block?: boolean }) {
  return (
    <Link
      className={`btn btn--${variant} ${block ? 'btn--block' : ''} ${className ?? ''}`}
      {...rest}
    />
  )
}
