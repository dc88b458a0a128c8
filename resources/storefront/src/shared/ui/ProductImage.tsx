import { useState } from 'react'
import { FALLBACK_IMAGE } from '../data/fallbackProducts'

/** The WebP widths scripts/product-images.js renders next to each built-in illustration. */
export const PRODUCT_IMAGE_WIDTHS = [400, 800, 1200]

/**
 * `srcset` for a built-in illustration (/images/products/<name>.svg has <name>-<width>.webp
 * beside it); null for any other address (an admin's https:// image), which is used as it is.
 */
export function productSrcSet(src: string): string | null {
  const match = /^(\/images\/products\/[a-z0-9-]+)\.svg$/.exec(src)
  if (!match) return null
  return PRODUCT_IMAGE_WIDTHS.map((width) => `${match[1]}-${width}.webp ${width}w`).join(', ')
}

/**
 * A product picture that falls back to the generic illustration when its file is missing. Its
 * width and height (4:3) reserve the space before it loads; `sizes` tells the browser how wide
 * it is drawn so a phone fetches the 400 px file.
 */
export function ProductImage({
  src,
  alt,
  className,
  eager,
  lazy = !eager,
  sizes = '(max-width: 640px) 100vw, (max-width: 1024px) 50vw, 400px',
}: {
  src: string | null | undefined
  alt: string
  className?: string
  /** The picture that is likely the largest paint: fetched first, decoded with the page. */
  eager?: boolean
  /** Off for pictures that may be in the first screen (a shop card): fetched without waiting. */
  lazy?: boolean
  sizes?: string
}) {
  const [failed, setFailed] = useState(false)
  const url = !src || failed ? FALLBACK_IMAGE : src
  const srcSet = productSrcSet(url)
  return (
    <img
      className={className}
      src={srcSet ? url.replace(/\.svg$/, '-800.webp') : url}
      srcSet={srcSet ?? undefined}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={800}
      height={600}
      loading={lazy ? 'lazy' : 'eager'}
      fetchPriority={eager ? 'high' : undefined}
      decoding={eager ? 'sync' : 'async'}
      onError={() => setFailed(true)}
    />
  )
}
