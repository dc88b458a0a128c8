import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'

type RouteInfo = { pattern: string; methods: string[] }

/** `/api/products/:id` and `/api/products/:productId` are one route: parameters by position. */
const shape = (method: string, pattern: string) =>
  `${method} ${pattern.replace(/:[A-Za-z_]\w*\??/g, ':param')}`

/*
| The front ends' API contract (shared/api/contract.ts) names each call as 'METHOD /path'. The
| types of its answers and bodies are read from the server's code; this holds the names to the
| router, so a call renamed or removed on the server cannot stay in the contract.
*/
test.group('API contract: every call the front ends make is a route of the server', () => {
  test('each METHOD /path of the contract is registered, with its method', async ({ assert }) => {
    const source = await readFile(app.makePath('shared/api/contract.ts'), 'utf8')
    const calls = [...source.matchAll(/^\s+'(GET|POST|PUT|PATCH|DELETE) (\/[^']*)'\s*:/gm)].map(
      (match) => shape(match[1], match[2])
    )
    assert.isAbove(calls.length, 30, 'the contract was read')

    const routes = new Set(
      (Object.values(router.toJSON()) as RouteInfo[][])
        .flat()
        .flatMap((route) => route.methods.map((method) => shape(method, route.pattern)))
    )
    const unknown = calls.filter((call) => !routes.has(call))
    assert.deepEqual(unknown, [], 'calls in the contract that the server does not route')
  })
})
