import env from '#start/env'

/*
| The retailer's own e-mail as the proof of an order's outcome (docs/mail-intake.md). Read on
| each use, so tests can vary it. Nothing here is on unless MAIL_INTAKE_DOMAIN is set.
*/
export type SuccessEvidence = 'either' | 'mail' | 'bot'

export function mailIntakeConfig() {
  const domain = env.get('MAIL_INTAKE_DOMAIN', '')?.trim().toLowerCase() || null
  return {
    /** Every order gets `<token>@<domain>` as its profile e-mail in the bot's task. */
    domain,
    /** The catch-all mailbox, read over IMAP (`imap://user:pass@host:port/INBOX`). */
    imapUrl: env.get('MAIL_INTAKE_IMAP_URL', '') || null,
    /** The folder a handled message is moved to. */
    imapDoneFolder: env.get('MAIL_INTAKE_IMAP_DONE_FOLDER', 'Dropslot'),
    /** How often the mailbox is read when the server offers no IDLE. */
    imapPollSeconds: env.get('MAIL_INTAKE_IMAP_POLL_SECONDS', 30),
    /**
     * Where a message goes that the intake failed on, took too long for or could not take (over
     * the size limit): moved out of the mailbox so it never blocks the next read again.
     */
    imapQuarantineFolder: env.get('MAIL_INTAKE_IMAP_QUARANTINE_FOLDER', 'Dropslot-Quarantine'),
    /** How long the intake may take over one message (IMAP: then it is quarantined). */
    messageTimeoutSeconds: env.get('MAIL_INTAKE_MESSAGE_TIMEOUT_SECONDS', 20),
    /** The inbound SMTP listener for installs whose MX points at Dropslot (off when unset). */
    smtpPort: env.get('MAIL_INTAKE_SMTP_PORT') ?? null,
    smtpHost: env.get('MAIL_INTAKE_SMTP_HOST', '0.0.0.0'),
    /** Clients connected at once; one more is answered 421 and let go. */
    smtpMaxClients: env.get('MAIL_INTAKE_SMTP_MAX_CLIENTS', 50),
    /** Connections plus messages one client address may open or send in a minute (then 421). */
    smtpRatePerMinute: env.get('MAIL_INTAKE_SMTP_RATE_PER_MINUTE', 60),
    /** A client silent this long is disconnected. */
    smtpIdleSeconds: env.get('MAIL_INTAKE_SMTP_IDLE_SECONDS', 60),
    /**
     * Addresses taken besides the orders' own (comma-separated, e.g. `postmaster@<domain>`); a
     * message to them reaches the review list. Any other recipient is refused at RCPT.
     */
    catchAll: (env.get('MAIL_INTAKE_CATCH_ALL', '') ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
    /** TXT records used instead of DNS (JSON: `{"sel._domainkey.kith.com": "v=DKIM1; ..."}`). */
    dnsFile: env.get('MAIL_INTAKE_DNS_FILE', '') || null,
    /**
     * The ARC sealers whose word is taken for forwarded mail (the catch-all mailbox's provider,
     * e.g. `google.com`). Empty: ARC is ignored and only the message's own DKIM counts.
     */
    trustedArcSealers: (env.get('MAIL_INTAKE_TRUSTED_ARC_SEALERS', '') ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase().replace(/\.$/, ''))
      .filter(Boolean),
    successEvidence: env.get('SUCCESS_EVIDENCE', 'either') as SuccessEvidence,
    successEvidenceWaitHours: env.get('SUCCESS_EVIDENCE_WAIT_HOURS', 48),
    refundOnCancelDays: env.get('REFUND_ON_CANCEL_DAYS', 30),
    retentionDays: env.get('MAIL_RETENTION_DAYS', 90),
    /** A door (IMAP) failing this long shows on the dashboard, /health and the alerts. */
    unreadableMinutes: 5,
  }
}
