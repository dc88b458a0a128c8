/*
| Who may do what, written once as @adonisjs/bouncer policies, each in the module that owns the
| rule. HTTP controllers and middleware reach them through `ctx.bouncer`, the CLI and other
| callers through `bouncerFor(user)` (start/authorization.ts). The list lives here, with the
| application's wiring, so that no module depends on the modules whose policies it lists.
*/
export const policies = {
  StaffPolicy: () => import('#accounts/policies/staff_policy'),
  OrderPolicy: () => import('#orders/policies/order_policy'),
}
