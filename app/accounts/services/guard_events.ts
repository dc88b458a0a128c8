import type { EmitterLike } from '@adonisjs/core/types/events'

const NOTHING = Promise.resolve()

/**
 * The emitter a guard is given: it hands an authentication event on only when something listens
 * for it. The guard emits two events per authenticated request (attempted, succeeded), and an
 * emit nobody hears still costs its promises, its queue and a read of process.env (emittery's
 * debug check) on the call every API request makes.
 */
export function listenedEventsOf<Events extends Record<string, any>>(
  emitter: EmitterLike<Events>
): EmitterLike<Events> {
  const emit = (event: any, data: any) =>
    emitter.hasListeners(event) ? emitter.emit(event, data) : NOTHING
  const emitSerial = (event: any, data: any) =>
    emitter.hasListeners(event) ? emitter.emitSerial(event, data) : NOTHING
  return {
    emit,
    emitSerial,
    listenerCount: (event) => emitter.listenerCount(event),
    hasListeners: (event) => emitter.hasListeners(event),
  }
}
