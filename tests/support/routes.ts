import { randomUUID } from 'node:crypto'
import router from '@adonisjs/core/services/router'

export type RouteInfo = {
  name?: string
  pattern: string
  methods: string[]
  matchers: Record<string, { match?: RegExp }>
}

/** Every route the router serves for staff: /api/admin/... and the console's user list. */
export function staffRoutes(): RouteInfo[] {
  const domains = router.toJSON() as Record<string, RouteInfo[]>
  return Object.values(domains)
    .flat()
    .filter((route) => route.pattern.startsWith('/api/admin/') || route.pattern === '/users')
}

/** A URL that reaches the route: each param gets a value its matcher accepts. */
export function sampleUrl(route: RouteInfo) {
  return route.pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'anything'
      if (!segment.startsWith(':')) return segment
      const matcher = route.matchers[segment.replace(/^:/, '').replace(/\?$/, '')]?.match
      return ['1', randomUUID()].find((value) => !matcher || matcher.test(value)) ?? '1'
    })
    .join('/')
}
