import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { registry } from '#core/services/metrics'

const DOC = new URL('../../../docs/operations.md', import.meta.url)

test.group('docs/operations.md stays true', () => {
  test('the Grafana dashboard is valid JSON and queries only metrics the processes expose', async ({
    assert,
  }) => {
    const text = await readFile(DOC, 'utf8')
    const block = /```json\n([\s\S]*?)\n```/.exec(text)
    assert.isNotNull(block, 'a dashboard JSON block')
    const dashboard = JSON.parse(block![1])
    assert.equal(dashboard.uid, 'dropslot-release-day')
    const expressions: string[] = dashboard.panels.flatMap((panel: any) =>
      panel.targets.map((target: any) => target.expr)
    )
    assert.isAbove(expressions.length, 10)
    const metrics = await registry.getMetricsAsJSON()
    const exposed = new Set(metrics.map((metric: { name: string }) => metric.name))
    const queried = new Set(
      expressions.flatMap((expression) =>
        [...expression.matchAll(/\b(dropslot_[a-z_]+)/g)].map((match) =>
          match[1].replace(/_(bucket|count|sum)$/, '')
        )
      )
    )
    for (const name of queried) assert.isTrue(exposed.has(name), `${name} is not exposed`)
    for (const name of exposed) {
      if (name.startsWith('dropslot_')) assert.isTrue(queried.has(name), `${name} has no panel`)
    }
  })

  test('the scrape config authenticates with the bearer token', async ({ assert }) => {
    const text = await readFile(DOC, 'utf8')
    const block = /```yaml\n([\s\S]*?)\n```/.exec(text)![1]
    assert.include(block, 'metrics_path: /metrics')
    assert.include(block, 'type: Bearer')
    assert.include(block, '--metrics-port 9464')
  })
})
