import { useEffect, useRef, type ReactNode } from 'react'
import { getConfig } from '../config'
import { loadScript } from './loadScript'

type TwitterWindow = Window & { twttr?: { widgets?: { load: (element?: Element) => void } } }

/**
 * The social timeline embed. With a timeline URL configured, the platform's widget script turns
 * the link into a timeline once it has loaded (after the page, never blocking it); without one,
 * the fallback content shows instead.
 */
export function SocialTimeline({
  fallback,
  height = 520,
}: {
  fallback: ReactNode
  height?: number
}) {
  const url = getConfig().integrations.socialTimelineUrl
  const ref = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!url) return
    let active = true
    loadScript('https://platform.twitter.com/widgets.js', { charset: 'utf-8' })
      .then(() => {
        if (active && ref.current) (window as TwitterWindow).twttr?.widgets?.load(ref.current)
      })
      .catch(() => {})
    return () => {
      active = false
    }
  }, [url])

  if (!url) return <>{fallback}</>
  return (
    <div className="social-timeline" ref={ref}>
      <a
        className="twitter-timeline"
        data-height={height}
        data-dnt="true"
        data-chrome="noheader nofooter transparent"
        href={url}
      >
        Latest posts from Dropslot
      </a>
    </div>
  )
}
