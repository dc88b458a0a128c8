import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { sampleUrl, staffRoutes, type RouteInfo } from '#tests/support/routes'
import { staffWithToken } from '#tests/helpers'
import { permissionForRoute, STAFF_ROUTE_PERMISSIONS } from '#core/middleware/staff_routes'
import { PERMISSIONS, roleCan, STAFF_ROLES, type StaffRole } from '#shared/staff_roles'

const methodsOf = (route: RouteInfo) => route.methods.filter((method) => method !== 'HEAD')

test.group('Staff roles decide every staff route', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('every staff route that writes names its permission, and every named route exists', ({
    assert,
  }) => {
    const routes = staffRoutes()
    const names = new Set(routes.map((route) => route.name))
    for (const name of Object.keys(STAFF_ROUTE_PERMISSIONS)) {
      assert.isTrue(names.has(name), `${name} is in the table but not a route`)
    }
    for (const route of routes) {
      if (methodsOf(route).every((method) => method === 'GET')) continue
      assert.isTrue(route.name! in STAFF_ROUTE_PERMISSIONS, `${route.pattern} has no permission`)
    }
    assert.isAtLeast(routes.length, 55)
  })

  test('the roles hold what the product promises', ({ assert }) => {
    const can = (role: StaffRole) =>
      (Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]).filter((p) => roleCan(role, p))
    assert.sameMembers(can('owner'), Object.keys(PERMISSIONS))
    assert.sameMembers(can('finance'), ['read', 'money'])
    assert.sameMembers(can('support'), ['read', 'orders', 'mark', 'customers'])
    assert.sameMembers(can('viewer'), ['read'])
    assert.isFalse(roleCan('customer', 'read'))
  })

  for (const role of STAFF_ROLES) {
    test(`${role === 'owner' ? 'an' : 'a'} ${role} is refused, on every staff route, exactly what the role does not hold`, async ({
      client,
      assert,
    }) => {
      const { token } = await staffWithToken(role)
      let refused = 0
      let letThrough = 0
      for (const route of staffRoutes()) {
        for (const method of methodsOf(route)) {
          const permission = permissionForRoute(route.name, method)
          const allowed = roleCan(role, permission)
          // A route the role holds is only called when it reads: what it would do otherwise is
          // each action's own tests' business, here it is enough that the table lets it by.
          if (allowed && method !== 'GET') continue
          const request = client.request(sampleUrl(route), method).bearerToken(token)
          const answer = await (method === 'GET' ? request : request.json({}))
          const label = `${role} ${method} ${route.pattern} (${permission})`
          if (allowed) {
            assert.notEqual(answer.body().code, 'forbidden_for_role', label)
            assert.notEqual(answer.status(), 401, label)
            letThrough++
          } else {
            assert.equal(answer.status(), 403, label)
            assert.equal(answer.body().code, 'forbidden_for_role', label)
            refused++
          }
        }
      }
      if (role === 'owner') assert.equal(refused, 0)
      else assert.isAtLeast(refused, role === 'viewer' ? 30 : 10)
      assert.isAtLeast(letThrough, 20)
    }).timeout(60_000)
  }
})
