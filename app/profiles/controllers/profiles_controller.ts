import type { HttpContext } from '@adonisjs/core/http'
import { AppError } from '#core/exceptions/app_error'
import { presentProfile, profileService } from '#profiles/services/profile_service'

function requireField(body: Record<string, unknown>, field: string) {
  if (body[field] === undefined || body[field] === null || body[field] === '') {
    throw AppError.badRequest(`The ${field} field is required.`, 'missing_field', {
      [field]: `The ${field} field is required.`,
    })
  }
  return body[field]
}

export default class ProfilesController {
  async index({ auth }: HttpContext) {
    const profiles = await profileService.list(auth.getUserOrFail())
    return profiles.map(presentProfile)
  }

  async add({ auth, request, response }: HttpContext) {
    const envelope = requireField(request.body(), 'eProfile')
    const profile = await profileService.addFromEnvelope(auth.getUserOrFail(), envelope)
    return response.created({ success: true, profile: presentProfile(profile) })
  }

  async edit({ auth, request }: HttpContext) {
    const envelope = requireField(request.body(), 'eProfile')
    const profile = await profileService.editFromEnvelope(auth.getUserOrFail(), envelope)
    return { success: true, profile: presentProfile(profile) }
  }

  async delete({ auth, request }: HttpContext) {
    const profileId = requireField(request.body(), 'profileId')
    await profileService.delete(auth.getUserOrFail(), profileId)
    return { success: true }
  }
}
