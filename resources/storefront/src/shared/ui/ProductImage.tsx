import { useState } from 'react'
import { FALLBACK_IMAGE } from '../data/fallbackProducts'

/** A product picture that falls back to the generic illustration when its file is missing. */
export function ProductImage({
  src,
  alt,
  className,
  eager,
}: {
  src: string | null | undefined
  alt: string
  className?: string
  eager?: boolean
}) {
  const [failed, setFailed] = useState(false)
  return (
    <img
      className={className}
      src={!src || failed ? FALLBACK_IMAGE : src}
      alt={alt}
      width={800}
      height={600}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  )
}
