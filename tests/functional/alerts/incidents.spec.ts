import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import alertsConfig, { webhookFormatOf } from '#config/alerts'
import { clock } from '#core/services/clock'
import { signals } from '#core/services/signals'
import { AlertCheck } from '#alerts/services/alert_check'
import { defineRule, type Finding } from '#alerts/rules/rule'
import Incident from '#alerts/models/incident'
import { adminWithToken, customerWithToken } from '#tests/helpers'
import { HttpSink } from '#tests/support/http_sink'
import { runCommand } from '#tests/support/cli'

/** A rule whose findings the test sets. */
function fakeRule(id: string) {
  const state: { findings: Finding[] | null } = { findings: [] }
  const rule = defineRule({
    id,
    description: `Test rule ${id}`,
    async evaluate() {
      return state.findings
    },
  })
  return { rule, state }
}

const finding = (subject = '', title = 'The thing is down'): Finding => ({
  subject,
  title,
  detail: 'What was seen, and where to look.',
  value: 3,
  threshold: 0,
})

test.group('Alerts: incidents, their messages and the console', (group) => {
  const sink = new HttpSink()
  const saved = { ...alertsConfig, thresholds: { ...alertsConfig.thresholds } }
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    await sink.start()
    sink.received = []
    sink.status = 200
    sink.reply = null
    signals.discard()
    alertsConfig.webhookUrl = sink.url('/hook')
    alertsConfig.webhookFormat = 'slack'
    alertsConfig.email = null
    return async () => {
      Object.assign(alertsConfig, saved, { thresholds: { ...saved.thresholds } })
      await sink.stop()
      await rollback()
    }
  })

  test('the webhook format follows the URL or the setting: Slack {text}, Discord {content}', async ({
    assert,
  }) => {
    assert.equal(webhookFormatOf('https://discord.com/api/webhooks/123/abc'), 'discord')
    assert.equal(webhookFormatOf('https://discordapp.com/api/webhooks/123/abc'), 'discord')
    assert.equal(webhookFormatOf('https://hooks.slack.com/services/T0/B0/x'), 'slack')
    assert.equal(webhookFormatOf('http://127.0.0.1:9/hook', 'discord'), 'discord')
    assert.equal(webhookFormatOf(null), 'slack')

    const { rule, state } = fakeRule('test_rule_format')
    const check = new AlertCheck([rule])
    alertsConfig.webhookFormat = 'discord'
    state.findings = [finding('', 'Bot unreachable')]
    await check.run()
    assert.lengthOf(sink.received, 1)
    const [message] = sink.received
    assert.equal(message.method, 'POST')
    assert.equal(message.headers['content-type'], 'application/json')
    assert.deepEqual(Object.keys(message.json).sort(), ['allowed_mentions', 'content', 'username'])
    assert.match(message.json.content, /^\[ALERT\] Bot unreachable\n/)
    assert.include(message.json.content, 'Rule test_rule_format')
    assert.match(message.json.content, /\/admin\/incidents\/\d+\/show/)

    alertsConfig.webhookFormat = 'slack'
    state.findings = []
    await check.run()
    assert.lengthOf(sink.received, 2)
    assert.deepEqual(Object.keys(sink.received[1].json), ['text'])
    assert.match(sink.received[1].json.text, /^\[RESOLVED\] Bot unreachable \(open since /)
  })

  test('one incident per rule and subject; a rule that cannot tell leaves it open', async ({
    assert,
  }) => {
    const { rule, state } = fakeRule('test_rule_subjects')
    const check = new AlertCheck([rule])
    state.findings = [finding('email'), finding('gateway')]
    const first = await check.run()
    assert.lengthOf(first.opened, 2)
    // Still wrong: updated, not opened again, nothing sent again.
    state.findings = [finding('email', 'The thing is still down'), finding('gateway')]
    const second = await check.run()
    assert.lengthOf(second.opened, 0)
    const email = await Incident.query().where('subject', 'email').firstOrFail()
    assert.equal(email.title, 'The thing is still down')
    // No verdict (its data could not be read): nothing resolves.
    state.findings = null
    const third = await check.run()
    assert.deepEqual(third.undecided, ['test_rule_subjects'])
    assert.lengthOf(third.resolved, 0)
    // One subject is fine again.
    state.findings = [finding('gateway')]
    const fourth = await check.run()
    assert.deepEqual(
      fourth.resolved.map((item) => item.subject),
      ['email']
    )
    assert.lengthOf(sink.received, 3)
    // It goes wrong again later: a new incident, announced again.
    state.findings = [finding('gateway'), finding('email')]
    const fifth = await check.run()
    assert.lengthOf(fifth.opened, 1)
    const emailIncidents = await Incident.query().where('subject', 'email')
    assert.lengthOf(emailIncidents, 2)
  })

  test('two checks at once open and announce an incident once', async ({ assert }) => {
    const { rule, state } = fakeRule('test_rule_race')
    state.findings = [finding()]
    alertsConfig.email = 'ops@example.test'
    const [one, two] = await Promise.all([
      new AlertCheck([rule]).run(),
      new AlertCheck([rule]).run(),
    ])
    assert.equal(one.opened.length + two.opened.length, 1)
    const rows = await Incident.query().where('rule', 'test_rule_race')
    assert.lengthOf(rows, 1)
    assert.lengthOf(sink.received, 1)
    const emails = await db.from('email_messages').where('to_address', 'ops@example.test')
    assert.lengthOf(emails, 1)
    assert.equal(emails[0].template, 'incident_opened')
    assert.include(emails[0].subject, '[Dropslot alert] The thing is down')
  })

  test('a webhook that fails is tried again with back-off, then sent once', async ({ assert }) => {
    const { rule, state } = fakeRule('test_rule_retry')
    const check = new AlertCheck([rule])
    sink.status = 500
    state.findings = [finding()]
    const first = await check.run()
    assert.deepEqual(first.notices, { sent: 0, failed: 1 })
    const notice = await db.from('incident_notices').firstOrFail()
    assert.equal(notice.status, 'queued')
    assert.equal(notice.attempts, 1)
    assert.include(notice.last_error, '500')
    // Not before its back-off is over.
    sink.status = 200
    const early = await check.run()
    assert.deepEqual(early.notices, { sent: 0, failed: 0 })
    clock.travel(20_000)
    const later = await check.run()
    assert.deepEqual(later.notices, { sent: 1, failed: 0 })
    const again = await check.run()
    assert.deepEqual(again.notices, { sent: 0, failed: 0 })
    assert.lengthOf(sink.received, 2, 'the failed try and the one that went through')
  })

  test('the console lists incidents, open ones on the dashboard; admins only', async ({
    client,
    assert,
  }) => {
    const { rule, state } = fakeRule('test_rule_console')
    const check = new AlertCheck([rule])
    state.findings = [finding('email', 'E-mail queue stuck')]
    await check.run()
    state.findings = []
    await check.run()
    state.findings = [finding('gateway', 'Gateway queue stuck')]
    await check.run()

    const { token } = await adminWithToken()
    const list = await client
      .get('/api/admin/incidents')
      .qs({ sort: JSON.stringify(['openedAt', 'DESC']), range: '[0,9]' })
      .bearerToken(token)
    list.assertStatus(200)
    assert.equal(list.header('content-range'), 'incidents 0-1/2')
    assert.deepEqual(
      list.body().map((row: any) => [row.title, row.status]),
      [
        ['Gateway queue stuck', 'open'],
        ['E-mail queue stuck', 'resolved'],
      ]
    )
    const open = await client
      .get('/api/admin/incidents')
      .qs({ filter: JSON.stringify({ status: 'open' }) })
      .bearerToken(token)
    assert.lengthOf(open.body(), 1)
    const one = await client.get(`/api/admin/incidents/${open.body()[0].id}`).bearerToken(token)
    one.assertStatus(200)
    assert.containsSubset(one.body(), {
      rule: 'test_rule_console',
      subject: 'gateway',
      status: 'open',
      detail: 'What was seen, and where to look.',
      resolvedAt: null,
    })
    const missing = await client.get('/api/admin/incidents/999999').bearerToken(token)
    missing.assertStatus(404)

    const dashboard = await client.get('/api/admin/dashboard').bearerToken(token)
    dashboard.assertStatus(200)
    assert.deepEqual(
      dashboard.body().openIncidents.map((row: any) => row.title),
      ['Gateway queue stuck']
    )

    const customer = await customerWithToken()
    const refused = await client.get('/api/admin/incidents').bearerToken(customer.token)
    refused.assertStatus(403)
  })
})

test.group('Alerts: dropslot alerts:status and alerts:check', (group) => {
  // The CLI is another process: what it reads and writes is committed, and removed afterwards.
  let lastId = 0
  group.each.setup(async () => {
    const row = await db.from('incidents').max('id as last').first()
    lastId = Number(row?.last ?? 0)
  })
  group.each.teardown(async () => {
    const created = db.from('incidents').where('id', '>', lastId).select('id')
    await db.from('incident_notices').whereIn('incident_id', created).delete()
    await db.from('email_messages').where('dedupe_key', 'like', 'incident:%').delete()
    await db.from('incidents').where('id', '>', lastId).delete()
  })

  test('alerts:status lists the open incidents; alerts:check evaluates now', async ({ assert }) => {
    const none = await runCommand(['alerts:status'])
    assert.equal(none.code, 0, none.stderr)
    const now = DateTime.now()
    await Incident.create({
      rule: 'cli_test_rule',
      subject: 'email',
      openKey: 'cli_test_rule:email',
      status: 'open',
      title: 'Queue email: the oldest job has waited 95 s',
      detail: 'Are its workers running?',
      value: 95,
      threshold: 60,
      openedAt: now,
      lastSeenAt: now,
      resolvedAt: null,
    })
    const listed = await runCommand(['alerts:status'])
    assert.equal(listed.code, 0, listed.stderr)
    assert.include(listed.stdout, 'open incident(s)')
    assert.include(listed.stdout, 'cli_test_rule (email)')
    assert.include(listed.stdout, 'Queue email: the oldest job has waited 95 s')
    const json = await runCommand(['--json', 'alerts:status'])
    const mine = json.json.open.find((row: any) => row.rule === 'cli_test_rule')
    assert.containsSubset(mine, { subject: 'email', status: 'open', value: 95 })

    const checked = await runCommand(['--json', 'alerts:check'])
    assert.equal(checked.code, 0, checked.stderr)
    assert.isTrue(checked.json.success)
    // The CLI runs no jobs embedded: the queue rules have no verdict there, nothing is resolved.
    assert.includeMembers(checked.json.undecided, ['queue_backlog', 'failed_jobs'])
  })
})
