/*
| Who may do what, written once as @adonisjs/bouncer policies, each in the module that owns the
| rule. HTTP controllers and middleware reach them through `ctx.bouncer`, the CLI and other
| callers through `bouncerFor(user)` (core/services/authorization.ts).
*/
export const policies = {
  StaffPolicy: () => import('#accounts/policies/staff_policy'),
  OrderPolicy: () => import('#orders/policies/order_policy'),
}
