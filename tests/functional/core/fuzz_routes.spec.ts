import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import testUtils from '@adonisjs/core/services/test_utils'
import { staffWithToken } from '#tests/helpers'
import { UserFactory } from '#database/factories/user_factory'
import { makeOrder } from '#tests/functional/admin/fixtures'

/*
| Property-based fuzzing of every route: arbitrary JSON bodies, query strings and path params,
| built around the field names the validators know, sent as an admin (so guarded routes reach
| their validators). Any 5xx fails the test with the route and the request that caused it. The
| seed is fixed and the number of runs bounded, so a failure replays the same way and the whole
| walk stays well under a minute on either database.
*/

const SEED = 20261123
const RUNS_PER_ROUTE = 30

type RouteInfo = {
  pattern: string
  methods: string[]
  matchers: Record<string, { match?: RegExp }>
}

function allRoutes(): RouteInfo[] {
  const domains = router.toJSON() as Record<string, RouteInfo[]>
  return Object.values(domains).flat()
}

/** Field names the app's validators read (`name: vine...`), so generated bodies hit them. */
async function validatorFieldNames(): Promise<string[]> {
  const names = new Set<string>()
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.endsWith('.ts')) {
        const source = await readFile(path, 'utf8')
        if (!source.includes('vine')) continue
        for (const match of source.matchAll(
          /^\s{2,}([A-Za-z_]\w*)\s*:\s*(?:vine\b|[A-Za-z]+\()/gm
        )) {
          names.add(match[1])
        }
      }
    }
  }
  await walk(app.makePath('app'))
  // The console's list parameters and the spec's query fields.
  for (const name of ['sort', 'range', 'filter', 'page', 'perPage', 'q', 'id', 'ids', 'limit']) {
    names.add(name)
  }
  return [...names].sort()
}

/** A JSON array body nested `depth` levels deep. */
class DeepBody {
  constructor(readonly depth: number) {}
  toJSON() {
    return `DeepBody(${this.depth})`
  }
  text() {
    return '['.repeat(this.depth) + ']'.repeat(this.depth)
  }
}

/** JSON nested `depth` levels deep (the limit is 64; 5,000 once overflowed the stack). */
function nested(depth: number): unknown {
  let value: unknown = 1
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value }
  return value
}

/** Values with the shapes that broke things before: nulls, huge numbers, deep or odd text. */
function valueArbitrary() {
  const nasty = fc.constantFrom<unknown>(
    '',
    ' ',
    0,
    -1,
    1,
    2 ** 53,
    1e308,
    '9'.repeat(400),
    'x'.repeat(5000),
    '\ud800',
    'null',
    'true',
    '[0,9]',
    '["id","ASC"]',
    '{"q":"x"}',
    '2025-03-01T10:00:00Z',
    '0b6c7c2e-5b1e-4f4e-9d3a-2a1f4c5e6d7f',
    'a@b.co',
    '4242424242424242',
    [],
    {},
    true
  )
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: nasty },
    { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 400 }).map(nested) }
  )
}

/**
 * Path params: ids of records that exist and fit the param's matcher (so handlers get past
 * their lookup), and junk.
 */
function pathParamArbitrary(existing: string[], matcher: RegExp | undefined) {
  const fitting = existing.filter((value) => !matcher || matcher.test(value))
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(fitting.length > 0 ? fitting : existing)) },
    fc.constantFrom('1', '0', '9'.repeat(16), '9'.repeat(5000), '-1', '1.5', 'abc', '%00'),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 20 }).map((value) => encodeURIComponent(value)),
    fc.nat().map(String)
  )
}

function queryString(entries: [string, unknown][]): string {
  const search = new URLSearchParams()
  for (const [key, value] of entries) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    // URLSearchParams writes lone surrogates as U+FFFD; that is fine for a query string.
    search.append(key, text ?? '')
  }
  const built = search.toString()
  return built ? `?${built}` : ''
}

test.group('Fuzz: no route answers a 5xx', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('arbitrary bodies, query strings and path params on every route', async ({ assert }) => {
    const routes = allRoutes()
    assert.isAtLeast(routes.length, 40)
    const fieldNames = await validatorFieldNames()
    assert.isAtLeast(fieldNames.length, 30)
    const base = `http://${process.env.HOST}:${process.env.PORT}`
    const customer = await UserFactory.create()
    const order = await makeOrder({ user: customer, status: 'pending' })
    const existing = [String(order.productId), order.publicId, customer.uuid, String(order.id)]

    const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fieldNames) }, fc.string())
    // Mostly objects over the validators' own field names, each present or not.
    const fields = Object.fromEntries(fieldNames.map((name) => [name, valueArbitrary()]))
    // The same blank value in every field of a subset: null and '' reach transforms and
    // columns that a random mix stops at the first invalid field.
    const blanks = fc
      .tuple(fc.subarray(fieldNames, { minLength: 1 }), fc.constantFrom<unknown>(null, '', [], {}))
      .map(([names, blank]) => Object.fromEntries(names.map((name) => [name, blank])))
    // Bodies nested thousands of levels deep, written out only when sent (printing such a value
    // in a counterexample would itself overflow the stack).
    const deep = fc.integer({ min: 65, max: 6000 }).map((depth) => new DeepBody(depth))
    const body = fc.oneof(
      { weight: 1, arbitrary: deep },
      { weight: 6, arbitrary: fc.record(fields, { requiredKeys: [] }) },
      { weight: 3, arbitrary: blanks },
      { weight: 2, arbitrary: fc.dictionary(key, valueArbitrary(), { maxKeys: 8 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) }
    )
    const query = fc.array(fc.tuple(key, valueArbitrary()), { maxLength: 4 })

    let requests = 0
    for (const route of routes) {
      const method = route.methods.find((name) => name !== 'HEAD') ?? 'GET'
      const params = route.pattern
        .split('/')
        .filter((segment) => segment.startsWith(':') || segment === '*')
        .map((segment) => route.matchers[segment.replace(/^:/, '').replace(/\?$/, '')]?.match)
      // A fresh admin per route: a route may sign its caller out or delete the account.
      const { token } = await staffWithToken('owner')

      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...params.map((matcher) => pathParamArbitrary(existing, matcher))),
          query,
          body,
          fc.constantFrom('json', 'json', 'json', 'form'),
          async (values, queryEntries, payload, encoding) => {
            let index = 0
            const path = route.pattern
              .split('/')
              .map((segment) =>
                segment.startsWith(':') || segment === '*' ? values[index++] : segment
              )
              .join('/')
            const url = `${base}${path}${queryString(queryEntries)}`
            const init: RequestInit = {
              method,
              headers: { authorization: `Bearer ${token}` },
              redirect: 'manual',
            }
            if (method !== 'GET') {
              if (encoding === 'json') {
                init.headers = { ...init.headers, 'content-type': 'application/json' }
                init.body = payload instanceof DeepBody ? payload.text() : JSON.stringify(payload)
              } else {
                const entries =
                  payload && typeof payload === 'object' && !(payload instanceof DeepBody)
                    ? Object.entries(payload)
                    : []
                init.headers = {
                  ...init.headers,
                  'content-type': 'application/x-www-form-urlencoded',
                }
                init.body = queryString(entries).slice(1)
              }
            }
            requests++
            const response = await fetch(url, init)
            const text = await response.text()
            if (response.status >= 500) {
              throw new Error(
                `${method} ${route.pattern} answered ${response.status}: ${text.slice(0, 300)}\n` +
                  `request: ${url.slice(0, 500)} ${String(init.body ?? '').slice(0, 500)}`
              )
            }
          }
        ),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true }
      )
    }
    assert.isAtLeast(requests, routes.length * RUNS_PER_ROUTE)
  }).timeout(120_000)
})
