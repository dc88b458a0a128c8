import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import { defineConfig } from '@adonisjs/core/http'
import proxyAddr from 'proxy-addr'

export const appKey = new Secret(env.get('APP_KEY'))

/**
 * Which proxies may tell us the client's address (X-Forwarded-For): the addresses or CIDR ranges
 * of TRUSTED_PROXIES (comma-separated; `loopback`, `linklocal` and `uniquelocal` name those
 * ranges), none by default. Never "all": a client could then name any address it likes and step
 * around every per-address limit.
 */
export function trustedProxies(
  list: string | undefined
): (address: string, hop: number) => boolean {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) return () => false
  return proxyAddr.compile(entries)
}

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  trustProxy: trustedProxies(env.get('TRUSTED_PROXIES')),
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
