import factory from '@adonisjs/lucid/factories'
import User from '#accounts/models/user'

let sequence = 0

export const UserFactory = factory
  .define(User, () => {
    sequence += 1
    return {
      email: `customer${Date.now().toString(36)}${sequence}@example.test`,
      password: 'correct-horse-battery',
      name: `Test Customer ${sequence}`,
      firstName: 'Test',
      lastName: `Customer${sequence}`.slice(0, 20),
      phone: '5551234567',
      role: 'customer' as const,
    }
  })
  .state('admin', (user) => {
    user.role = 'owner'
  })
  .state('finance', (user) => {
    user.role = 'finance'
  })
  .state('support', (user) => {
    user.role = 'support'
  })
  .state('viewer', (user) => {
    user.role = 'viewer'
  })
  .state('withBilling', (user) => {
    user.billingAddress = {
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      postal_code: '12345',
      state: 'IL',
      country: 'US',
    }
  })
  .build()
