import { test } from '@japa/runner'
import { Emitter } from '@adonisjs/core/events'
import app from '@adonisjs/core/services/app'
import { listenedEventsOf } from '#accounts/services/guard_events'

type Events = { 'access_tokens_auth:authentication_succeeded': { guardName: string } }

test.group('Guard events', () => {
  test('an authentication event reaches whoever listens: a listener of every event or of its own', async ({
    assert,
  }) => {
    const emitter = new Emitter<Events>(app)
    const heard: string[] = []
    emitter.onAny((event) => heard.push(`any:${String(event)}`))
    const events = listenedEventsOf(emitter)

    await events.emit('access_tokens_auth:authentication_succeeded', { guardName: 'customer' })
    assert.deepEqual(heard, ['any:access_tokens_auth:authentication_succeeded'])

    emitter.clearAllListeners()
    emitter.on('access_tokens_auth:authentication_succeeded', ({ guardName }) => {
      heard.push(guardName)
    })
    await events.emit('access_tokens_auth:authentication_succeeded', { guardName: 'api' })
    assert.deepEqual(heard.slice(1), ['api'])

    emitter.clearListeners('access_tokens_auth:authentication_succeeded')
    assert.isFalse(events.hasListeners('access_tokens_auth:authentication_succeeded'))
  })
})
