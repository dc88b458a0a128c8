import { Alert, Button } from '@mui/material'
import { Link, useTranslate } from 'react-admin'
import type { DashboardSummary } from '@shared/api/contract'

/** Without SMTP (outside production) e-mail goes to the console's mailbox: said on top, linked. */
export function MailboxNotice({ mail }: { mail: DashboardSummary['outgoingMail'] | undefined }) {
  const translate = useTranslate()
  if (!mail?.notice) return null
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      data-testid="mailbox-notice"
      action={
        <Button component={Link} to="/mailbox" size="small">
          {translate('dropslot.mailbox.open')}
        </Button>
      }
    >
      {mail.notice}
    </Alert>
  )
}
