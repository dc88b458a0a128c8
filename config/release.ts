import env from '#start/env'
import { assertCheckoutSecrets, resolveCheckoutSecrets } from '#release/settings'

/*
| The checkout bot's secrets (app/release/settings.ts): CHECKOUT_TASK_SECRET signs the tasks we
| send, CHECKOUT_RESULTS_SECRET verifies the results the bot sends back. Production refuses to
| start without both, or with weak, published or equal ones. The rest of release day's settings
| are read on each use (app/release/services/release_config.ts).
*/
const secrets = resolveCheckoutSecrets({
  nodeEnv: env.get('NODE_ENV'),
  taskSecret: env.get('CHECKOUT_TASK_SECRET'),
  resultsSecret: env.get('CHECKOUT_RESULTS_SECRET'),
  legacySecret: env.get('CHECKOUT_WEBHOOK_SECRET'),
})
assertCheckoutSecrets(secrets)

const releaseSettings = {
  taskSecret: secrets.taskSecret,
  resultsSecret: secrets.resultsSecret,
  /** Development or test running on the deprecated CHECKOUT_WEBHOOK_SECRET (logged once). */
  usesDeprecatedSecret: secrets.usesDeprecatedSecret,
}

export default releaseSettings
