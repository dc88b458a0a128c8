import { test } from '@japa/runner'
import HttpExceptionHandler from '#core/exceptions/handler'

class ProductionHandler extends HttpExceptionHandler {
  protected debug = false
}

test.group('Exception handler', () => {
  test('an unexpected error is a 500 envelope with no internals in production', ({ assert }) => {
    const error = new Error('SQLITE_BUSY: database is locked at /srv/app/secret.ts:42')
    const { status, envelope } = new ProductionHandler().toEnvelope(error)
    assert.equal(status, 500)
    assert.deepEqual(envelope, {
      success: false,
      error: 'Something went wrong. Please try again.',
      code: 'server_error',
    })
    assert.notInclude(JSON.stringify(envelope), 'secret.ts')
  })
})
