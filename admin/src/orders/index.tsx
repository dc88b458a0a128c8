import { DkimChip, MailActionChip, type MailMessageRecord } from '../mail'
import { Box, Card, CardContent, Chip, Divider, Grid, Stack, Typography } from '@mui/material'
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart'
import { formatCents } from '@shared/pricing'
import {
  AutocompleteInput,
  BooleanInput,
  DatagridConfigurable,
  DateField,
  DateInput,
  FunctionField,
  List,
  Labeled,
  ReferenceField,
  ReferenceInput,
  SelectArrayInput,
  Show,
  TextField,
  TextInput,
  useRecordContext,
  useShowContext,
  useTranslate,
  Link,
} from 'react-admin'
import {
  FeeDueChip,
  STATUS_CHOICES,
  Search,
  StatusChip,
  cents,
  money,
  localTime,
} from '../components/common'
import { AcoDownloadButton, CancelOrderButton, OrderToolButton, ResendEmailButton } from './actions'
import { OrderBulkActions, OrderListActions } from './listActions'
import { MarkOrderButton } from './MarkOrderButton'
import { SlotChoiceFields } from './SlotChoiceFields'
import { Can } from '../components/Can'
import { OrderCreate } from './create'
import type { AdminOrder } from '@shared/api/contract'

const orderFilters = [
  <Search key="q" source="q" alwaysOn hint="dropslot.search.orders" />,
  <SelectArrayInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput optionText="productTitle" sx={{ minWidth: 260 }} />
  </ReferenceInput>,
  <DateInput key="from" source="orderDate_gte" />,
  <DateInput key="until" source="orderDate_lte" />,
  <TextInput key="promo" source="promoCode" />,
  <BooleanInput key="feeDue" source="feeDue" />,
]

export function OrderList() {
  return (
    <List
      filters={orderFilters}
      sort={{ field: 'orderDate', order: 'DESC' }}
      perPage={50}
      actions={<OrderListActions />}
    >
      <DatagridConfigurable rowClick="show" bulkActionButtons={<OrderBulkActions />}>
        <FunctionField
          source="orderNumber"
          label="resources.orders.fields.id"
          sortable={false}
          render={(record) => (
            <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
              {record.orderNumber}
            </Typography>
          )}
        />
        <DateField source="orderDate" showTime />
        <TextField source="productTitle" />
        <FunctionField
          source="size"
          render={(record) => `${String(record.size).toUpperCase()} · ${record.style}`}
        />
        <FunctionField
          source="email"
          render={(record) => (
            <Box>
              <Typography variant="body2">{record.email}</Typography>
              <Typography variant="caption" color="text.secondary">
                {record.name}
              </Typography>
            </Box>
          )}
        />
        <FunctionField source="price" render={(record) => money(record.price)} textAlign="right" />
        <TextField source="promoCode" emptyText="" />
        <FunctionField
          source="status"
          render={() => (
            <Stack direction="row" spacing={0.5}>
              <StatusChip />
              <FeeDueChip />
            </Stack>
          )}
        />
      </DatagridConfigurable>
    </List>
  )
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const translate = useTranslate()
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  )
}

function Timeline() {
  const record = useRecordContext()
  const translate = useTranslate()
  if (!record) return null
  const steps: Array<[string, string | null]> = [
    [translate('dropslot.timeline.bought'), record.orderDate],
    [translate('dropslot.timeline.processing'), record.processingAt],
    [translate('dropslot.timeline.success'), record.succeededAt],
    [translate('dropslot.timeline.fail'), record.failedAt],
    [translate('dropslot.timeline.cancelled'), record.cancelledAt],
  ]
  return (
    <Stack spacing={0.5} sx={{ mt: 1 }}>
      {steps
        .filter(([, at]) => at)
        .map(([label, at]) => (
          <Box key={label} sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
            <Typography variant="body2">{label}</Typography>
            <Typography variant="body2" color="text.secondary">
              {new Date(at as string).toLocaleString()}
            </Typography>
          </Box>
        ))}
      {record.failReason && (
        <Typography variant="body2" color="error">
          {record.failReason}
          {record.failCode ? ` (${translate(`dropslot.orders.fail_code.${record.failCode}`)})` : ''}
        </Typography>
      )}
      <OrderEvents />
    </Stack>
  )
}

type OrderEventRow = AdminOrder['timeline'][number]

/** What happened to the order after checkout, from the server's timeline (`order_events`). */
function OrderEvents() {
  const record = useRecordContext()
  const translate = useTranslate()
  const events = (record?.timeline ?? []) as OrderEventRow[]
  if (events.length === 0) return null
  return (
    <Stack divider={<Divider flexItem />} spacing={0.5} sx={{ mt: 1 }} data-testid="order-events">
      {events.map((event) => (
        <Box key={event.id}>
          <Typography variant="body2">
            <b>{translate(`dropslot.orders.event.${event.kind}`, { _: event.kind })}</b>
            {event.kind === 'result_rejected' && event.meta?.code
              ? ` (${translate(`dropslot.orders.refusal.${event.meta.code}`, { _: event.meta.code })}${
                  event.meta.round ? `, round ${event.meta.round}` : ''
                })`
              : ''}
            {event.from && event.to && event.from !== event.to
              ? ` · ${event.from} → ${event.to}`
              : ''}{' '}
            · {event.actor ?? event.source} · {new Date(event.createdAt).toLocaleString()}
          </Typography>
          {event.note && (
            <Typography variant="caption" color="text.secondary">
              “{event.note}”
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  )
}

type LedgerEntry = AdminOrder['ledger'][number]

const LEDGER_TONE: Record<string, string> = {
  succeeded: 'success.main',
  failed: 'error.main',
  started: 'warning.main',
}

/** Every gateway call for this order, oldest first: what was held, charged, released, refunded. */
function Ledger() {
  const record = useRecordContext()
  const translate = useTranslate()
  const ledger = (record?.ledger ?? []) as LedgerEntry[]
  if (ledger.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('dropslot.orders.ledger_empty')}
      </Typography>
    )
  }
  return (
    <Stack divider={<Divider flexItem />} spacing={0.5} sx={{ mt: 1 }} data-testid="ledger">
      {ledger.map((entry) => (
        <Box
          key={entry.id}
          sx={{ display: 'grid', gridTemplateColumns: '1.3fr 1fr 1fr 1.6fr', gap: 2 }}
          title={entry.idempotencyKey}
        >
          <Typography variant="body2">
            {translate(`dropslot.orders.ledger_kind.${entry.kind}`, { _: entry.kind })}
          </Typography>
          <Typography variant="body2" sx={{ textAlign: 'right' }}>
            {cents(entry.amountCents)}
          </Typography>
          <Typography variant="body2" sx={{ color: LEDGER_TONE[entry.status] }}>
            {translate(`dropslot.orders.ledger_status.${entry.status}`, { _: entry.status })}
            {entry.errorCode ? ` (${entry.errorCode})` : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'right' }}>
            {localTime(entry.completedAt ?? entry.createdAt)}
          </Typography>
        </Box>
      ))}
    </Stack>
  )
}

type EmailRow = AdminOrder['emails'][number]
type AuditRow = AdminOrder['auditTrail'][number]

function EmailHistory() {
  const record = useRecordContext()
  const translate = useTranslate()
  const emails = (record?.emails ?? []) as EmailRow[]
  if (emails.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('dropslot.orders.no_emails')}
      </Typography>
    )
  }
  return (
    <Stack divider={<Divider flexItem />} spacing={0.5} sx={{ mt: 1 }}>
      {emails.map((email) => (
        <Box key={email.id} sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <Link to={`/emails/${email.id}/show`}>{email.subject}</Link>
          <Typography variant="body2" color="text.secondary">
            {email.status} · {localTime(email.createdAt)}
          </Typography>
        </Box>
      ))}
    </Stack>
  )
}

function AuditTrail() {
  const record = useRecordContext()
  const translate = useTranslate()
  const entries = (record?.auditTrail ?? []) as AuditRow[]
  if (entries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('dropslot.orders.no_audit')}
      </Typography>
    )
  }
  return (
    <Stack divider={<Divider flexItem />} spacing={0.5} sx={{ mt: 1 }}>
      {entries.map((entry) => (
        <Box key={entry.id}>
          <Typography variant="body2">
            <b>{entry.action}</b> by {entry.actorLabel} · {localTime(entry.createdAt)}
          </Typography>
          {entry.reason && (
            <Typography variant="caption" color="text.secondary">
              “{entry.reason}”
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  )
}

function OrderTitle() {
  const record = useRecordContext()
  const translate = useTranslate()
  return <span>{translate('dropslot.orders.title', { id: record?.orderNumber ?? '' })}</span>
}

/**
 * The retailer's e-mails about the order (the mail intake): the evidence of its outcome, with
 * their DKIM result and what each did; a flag when the retailer contradicted the checkout bot.
 */
function RetailerMail() {
  const record = useRecordContext()
  const mail = (record?.mail ?? []) as MailMessageRecord[]
  return (
    <Stack spacing={1} sx={{ mt: 1 }}>
      {record?.mailFlag ? (
        <Chip
          color="warning"
          size="small"
          label="The bot reported a failure; the retailer's e-mail confirmed the order"
        />
      ) : null}
      {mail.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No e-mail from the retailer yet.
        </Typography>
      ) : (
        mail.map((message) => (
          <Stack key={message.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Link to={`/mail-messages/${message.id}/show`}>
              {new Date(message.receivedAt).toLocaleString()}
            </Link>
            <Typography variant="body2">{message.kind}</Typography>
            <DkimChip dkim={message.dkim} />
            <MailActionChip action={message.action} />
            <Typography variant="caption" color="text.secondary">
              {message.retailerOrderNumber ?? ''} {message.trackingNumber ?? ''}
            </Typography>
          </Stack>
        ))
      )}
    </Stack>
  )
}

function OrderShowLayout() {
  const { record } = useShowContext()
  if (!record) return null
  return (
    <Box sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6">{record.productTitle}</Typography>
        <StatusChip />
        <FeeDueChip />
        <Box sx={{ flex: 1 }} />
        <Can permission="mark">
          <MarkOrderButton status="success" />
          <MarkOrderButton status="fail" />
        </Can>
        <Can permission="orders">
          <CancelOrderButton />
        </Can>
        <Can permission="money">
          <OrderToolButton tool="refund" />
          <OrderToolButton tool="waive" />
          <OrderToolButton tool="retry" />
          <OrderToolButton tool="correct" />
        </Can>
        <Can permission="orders">
          <ResendEmailButton />
        </Can>
        <Can permission="cards">
          <AcoDownloadButton />
        </Can>
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="dropslot.orders.customer">
            <Stack spacing={1} sx={{ mt: 1 }}>
              <Labeled source="id">
                <FunctionField
                  sx={{ fontFamily: 'monospace' }}
                  render={(order) =>
                    (order.round ?? 1) > 1
                      ? `${order.orderNumber} · ${order.id} · round ${order.round}`
                      : `${order.orderNumber} · ${order.id}`
                  }
                />
              </Labeled>
              <Labeled source="email">
                <FunctionField
                  render={(order) =>
                    order.customerId ? (
                      <Link to={`/customers/${order.customerId}/show`}>
                        {order.name} · {order.email}
                      </Link>
                    ) : (
                      `${order.name} · ${order.email}`
                    )
                  }
                />
              </Labeled>
              <Labeled source="profileName">
                <TextField source="profileName" />
              </Labeled>
              <Labeled source="productId">
                <ReferenceField source="productId" reference="products" link="edit" />
              </Labeled>
              <Labeled source="size">
                <FunctionField
                  render={(order) => `${String(order.size).toUpperCase()} · ${order.style}`}
                />
              </Labeled>
              <SlotChoiceFields />
              <Labeled source="price">
                <FunctionField
                  render={(order) =>
                    order.promoCode
                      ? `${formatCents(order.priceCents)} (${order.promoCode}, −${order.promoPercent}% of ${formatCents(order.basePriceCents)})`
                      : formatCents(order.priceCents)
                  }
                />
              </Labeled>
              <Labeled source="confirmationNumber">
                <TextField source="confirmationNumber" emptyText="—" />
              </Labeled>
              <Labeled source="mailAddress">
                <TextField source="mailAddress" sx={{ fontFamily: 'monospace' }} emptyText="—" />
              </Labeled>
            </Stack>
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Stack spacing={2}>
            <Section title="dropslot.orders.timeline">
              <Timeline />
            </Section>
            <Section title="dropslot.orders.ledger">
              <Ledger />
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="dropslot.orders.retailer_mail">
            <RetailerMail />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="dropslot.orders.emails">
            <EmailHistory />
          </Section>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Section title="dropslot.orders.audit">
            <AuditTrail />
          </Section>
        </Grid>
      </Grid>
    </Box>
  )
}

export function OrderShow() {
  return (
    <Show title={<OrderTitle />} actions={false}>
      <OrderShowLayout />
    </Show>
  )
}

export default {
  list: OrderList,
  show: OrderShow,
  create: OrderCreate,
  icon: ShoppingCartIcon,
  recordRepresentation: (record: { orderNumber: string; productTitle: string }) =>
    `${record.orderNumber} · ${record.productTitle}`,
}
