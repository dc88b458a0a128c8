import env from '#start/env'

/*
| Alerts (app/alerts, docs/operations.md): one scheduled check for the cluster evaluates each
| rule; an incident is sent once when it opens and once when it resolves, to ALERT_WEBHOOK_URL
| (Slack's or Discord's incoming-webhook JSON) and to ALERT_EMAIL (through the e-mail outbox).
| Both are optional: unset, incidents are only kept and shown in the console.
*/
const webhookUrl = env.get('ALERT_WEBHOOK_URL')?.trim() || null

/** Discord's incoming webhooks take `{content}`; Slack's (and most chat tools') `{text}`. */
export function webhookFormatOf(url: string | null, setting?: 'slack' | 'discord' | null) {
  if (setting) return setting
  if (url && /^https:\/\/(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\//i.test(url)) {
    return 'discord'
  }
  return 'slack'
}

const alertsConfig = {
  webhookUrl,
  webhookFormat: webhookFormatOf(webhookUrl, env.get('ALERT_WEBHOOK_FORMAT') ?? null) as
    'slack' | 'discord',
  email: env.get('ALERT_EMAIL')?.trim() || null,
  /** How often the one check runs (a BullMQ job scheduler with workers, a timer embedded). */
  checkEverySeconds: env.get('ALERT_CHECK_SECONDS', 30),
  thresholds: {
    /** A queue whose oldest waiting job is older than this. */
    queueAgeSeconds: env.get('ALERT_QUEUE_AGE_SECONDS', 60),
    /** More failed jobs than this in a queue (BullMQ's failed set; embedded: the last hour). */
    failedJobs: env.get('ALERT_FAILED_JOBS', 0),
    /** A waiting order whose $1.00 check is not placed this long after the order. */
    holdGraceMinutes: env.get('ALERT_HOLD_GRACE_MINUTES', 10),
    /** A waiting order's hold lapsing within this many hours, its renewal overdue by the grace. */
    holdExpiryHours: env.get('ALERT_HOLD_EXPIRY_HOURS', 24),
    /** More 429 answers of the payment gateway than this in a minute. */
    gateway429PerMinute: env.get('ALERT_GATEWAY_429_PER_MINUTE', 0),
    /** This many webhook deliveries with a bad signature in a minute, or more: a burst. */
    badSignaturesPerMinute: env.get('ALERT_BAD_SIGNATURES_PER_MINUTE', 5),
    /** 5xx answers above this share (percent) of the answers of a minute... */
    serverErrorPercent: env.get('ALERT_5XX_PERCENT', 1),
    /** ...once the minute has at least this many answers (one 500 of three is not a trend). */
    serverErrorMinAnswers: env.get('ALERT_5XX_MIN_ANSWERS', 20),
    /** The retailers' mailbox (the mail intake's IMAP door) failing to be read this long. */
    mailUnreadableMinutes: env.get('ALERT_MAIL_UNREADABLE_MINUTES', 5),
    /** A draw's or a waiting room's committed beacon round due this long and still not fetched. */
    beaconUnavailableMinutes: env.get('ALERT_BEACON_UNAVAILABLE_MINUTES', 5),
  },
  /** Webhook notices are tried this many times (with back-off) before they are given up. */
  noticeMaxAttempts: 8,
  noticeTimeoutMs: 5000,
}

export type AlertsConfig = typeof alertsConfig

export default alertsConfig
