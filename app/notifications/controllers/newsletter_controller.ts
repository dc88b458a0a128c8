import type { HttpContext } from '@adonisjs/core/http'
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { newsletterService } from '#notifications/services/newsletter_service'

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
    const { alreadySubscribed } = await newsletterService.subscribe(email)
    return { success: true, subscribed: true, alreadySubscribed }
  }
}
