import type { Command } from 'commander'
import { bootApp } from '../app.js'
import { cliActor } from '../actor.js'
import { CommandFailed, printResult, printTable, UsageError } from '../output.js'

/**
 * Every column the vault seals, from the module that owns its table. A module that seals a new
 * column adds it to its `services/sealed_columns.ts`, and that list is named here.
 */
async function sealedColumns() {
  const [accounts, profiles, orders, mail, notifications] = await Promise.all([
    import('#accounts/services/sealed_columns'),
    import('#profiles/services/sealed_columns'),
    import('#orders/services/sealed_columns'),
    import('#mail/services/sealed_columns'),
    import('#notifications/services/sealed_columns'),
  ])
  return [
    ...accounts.accountSealedColumns,
    ...profiles.profileSealedColumns,
    ...orders.orderSealedColumns,
    ...mail.mailSealedColumns,
    ...notifications.notificationSealedColumns,
  ]
}

function batchSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw new UsageError('--batch must be a whole number from 1 to 10000')
  }
  return Number(value)
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

export function registerVaultCommands(program: Command) {
  program
    .command('vault:status')
    .description(
      'How many sealed values each key of VAULT_KEYS still seals, per table and column; ' +
        'which key is current and which older keys can be removed'
    )
    .action(async () => {
      await bootApp()
      const { vaultRotation } = await import('#core/services/vault_rotation')
      const status = await vaultRotation.status(await sealedColumns())
      const older = status.keys.slice(1)
      const lines = [
        `Current key: ${status.currentKey} (seals every new value)` +
          (older.length ? `; older keys: ${older.join(', ')}` : '; no older key'),
        '',
        ...printTable(
          status.columns.map((column) => ({
            'table.column': `${column.table}.${column.column}`,
            ...column.byKey,
            'unknown key': column.unknownKey,
          }))
        ),
        '',
      ]
      if (status.underOlderKeys > 0) {
        lines.push(
          `${plural(status.underOlderKeys, 'value')} still under an older key; ` +
            'run `dropslot vault:rotate` before removing it from VAULT_KEYS.'
        )
      } else {
        lines.push(
          `No value is under an older key: all that VAULT_KEYS opens is under ${status.currentKey}.`
        )
      }
      if (status.removableKeys.length) {
        lines.push(`Can be removed from VAULT_KEYS: ${status.removableKeys.join(', ')}.`)
      }
      if (status.unknownKey > 0) {
        const ids = [...new Set(status.columns.flatMap((column) => column.unknownKeyIds))]
        lines.push(
          `${plural(status.unknownKey, 'value')} under a key VAULT_KEYS does not hold ` +
            `(${ids.map((id) => id || '(none)').join(', ')}): they cannot be opened until that ` +
            'key is back in VAULT_KEYS (after the first).'
        )
      }
      printResult(program.opts(), { success: true, ...status }, lines)
    })

  program
    .command('vault:rotate')
    .description(
      'Seal every sealed value again with the first key of VAULT_KEYS, in batches; ' +
        'run it again after an interruption (values already under that key are skipped); audited'
    )
    .option('--batch <n>', 'rows read and rotated at a time', '200')
    .action(async (options: { batch: string }) => {
      const batch = batchSize(options.batch)
      await bootApp()
      const actor = await cliActor(program, 'vault')
      const { vaultRotation } = await import('#core/services/vault_rotation')
      const { auditLog } = await import('#core/services/audit_log_service')
      const columns = await sealedColumns()
      let report
      try {
        report = await vaultRotation.rotate(columns, {
          batch,
          // Progress on stderr, one line a batch; stdout keeps the result (one JSON with --json).
          onBatch: (done) => {
            process.stderr.write(
              `${done.table}.${done.column}: batch ${done.batchNumber} done, ` +
                `${done.rotated} rotated, ${done.current} already current so far\n`
            )
          },
        })
      } catch (error) {
        // The run stopped on an error (the database's message may quote a sealed value: not kept).
        await auditLog
          .record({
            actor,
            action: 'vault.rotate',
            subjectType: 'vault',
            meta: { batch, completed: false },
          })
          .catch(() => {})
        throw error
      }
      const totals = (count: 'rotated' | 'current' | 'changed' | 'unknownKey' | 'unreadable') =>
        report.columns.reduce((sum, column) => sum + column[count], 0)
      const failed = totals('unknownKey') + totals('unreadable')
      await auditLog.record({
        actor,
        action: 'vault.rotate',
        subjectType: 'vault',
        subjectId: report.currentKey,
        meta: {
          batch,
          completed: failed === 0,
          currentKey: report.currentKey,
          columns: report.columns,
          unknownKeyIds: report.unknownKeyIds,
        },
      })
      const lines = [
        ...printTable(
          report.columns.map((column) => ({
            'table.column': `${column.table}.${column.column}`,
            'rotated': column.rotated,
            'already current': column.current,
            'changed meanwhile': column.changed,
            'unknown key': column.unknownKey,
            'unreadable': column.unreadable,
          }))
        ),
        '',
        `${plural(totals('rotated'), 'value')} sealed again under ${report.currentKey}, ` +
          `${totals('current')} already under it.`,
      ]
      if (totals('changed') > 0) {
        lines.push(
          `${plural(totals('changed'), 'value')} changed by the app meanwhile kept as written; ` +
            '`dropslot vault:status` tells if any is still under an older key.'
        )
      }
      const result = { success: failed === 0, ...report }
      if (failed === 0) {
        printResult(program.opts(), result, lines)
        return
      }
      if (!program.opts().json) printResult(program.opts(), result, lines)
      const problems = []
      if (totals('unknownKey') > 0) {
        const ids = report.unknownKeyIds.map((id) => id || '(none)').join(', ')
        problems.push(
          `${plural(totals('unknownKey'), 'value')} under a key VAULT_KEYS does not hold (${ids}) ` +
            'cannot be opened; put that key back in VAULT_KEYS (after the first) and run again'
        )
      }
      if (totals('unreadable') > 0) {
        problems.push(
          `${plural(totals('unreadable'), 'value')} did not open with the key they name ` +
            '(damaged, or a key id given other bytes) and were left as they are'
        )
      }
      throw new CommandFailed(problems.join('; '), result)
    })
}
