import type { HttpContext } from '@adonisjs/core/http'
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { newsletterService } from '#notifications/services/newsletter_service'
import { consumeAttempt } from '#core/services/rate_limits'
import dropslotConfig from '#config/dropslot'

export const subscribeValidator = vine.compile(
  vine.object({
    email: vine.string().trim().maxLength(254).email().normalizeEmail({ all_lowercase: true }),
  })
)
subscribeValidator.messagesProvider = new SimpleMessagesProvider({
  required: 'Please enter your e-mail address.',
  string: 'Please enter your e-mail address.',
  email: 'Please enter a valid e-mail address.',
  maxLength: 'Please enter a valid e-mail address.',
})

export default class NewsletterController {
  async subscribe({ request }: HttpContext) {
    const { email } = await subscribeValidator.validate(request.qs())
    await consumeAttempt(
      'newsletter',
      { ip: request.ip(), email },
      { requests: dropslotConfig.rateLimits.newsletterPerHour, duration: '1 hour' },
      (wait) => `Too many sign-ups. Please wait ${wait} and try again.`
    )
    const { alreadySubscribed } = await newsletterService.subscribe(email)
    return { success: true, subscribed: true, alreadySubscribed }
  }
}
