import dropslotConfig from '#config/dropslot'
import pingsConfig from '#config/pings'

/**
 * Run-time configuration the storefront needs. Everything here is public by nature; the
 * transport key is served (not baked into a build) so a deployment can set it without rebuilding.
 * The integrations are null when not configured, and the storefront then loads nothing for them.
 */
export default class PublicConfigController {
  async show() {
    return {
      profileTransportKey: dropslotConfig.profileTransportKey.toString('hex'),
      supportEmail: dropslotConfig.supportEmail,
      integrations: { ...dropslotConfig.storefrontIntegrations },
      /** Web push's application server key (VAPID), null when push is not set up. */
      pushPublicKey: pingsConfig.vapid?.publicKey ?? null,
    }
  }
}
