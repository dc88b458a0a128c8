/** The words of the console's mailbox (`dropslot.mailbox.*`, merged into the console's messages). */
export const mailboxMessages = {
  title: 'Mailbox',
  intro:
    'E-mails this install kept instead of sending them (SMTP is not configured). Open one to see it as the customer would.',
  open: 'Open the mailbox',
  status: 'kept in mailbox',
  kept_at: 'Kept',
  empty: 'No e-mail kept yet.',
}
