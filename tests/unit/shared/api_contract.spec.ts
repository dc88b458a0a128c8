import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { test } from '@japa/runner'

/*
| The storefront reads the API's answers from the server's own code (`shared/api/contract.ts`).
| This test typechecks the storefront as `npm run typecheck` does (its own tsconfig), in memory,
| with one field of the order presenter renamed on the server, which a storefront that did not
| follow must fail. That the storefront typechecks as the code is, is `npm run typecheck`'s part
| (CI runs it once).
*/
const root = fileURLToPath(new URL('../../../', import.meta.url))
const storefrontConfig = join(root, 'resources/storefront/tsconfig.json')
const orderPresenter = join(root, 'app/orders/services/order_presenter.ts')

/** The storefront's type errors, with `change` applied to the files it names (in memory only). */
function storefrontErrors(change: Record<string, (text: string) => string> = {}) {
  const config = ts.getParsedCommandLineOfConfigFile(storefrontConfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
    },
  })!
  const host = ts.createCompilerHost(config.options)
  const readFile = host.readFile.bind(host)
  host.readFile = (fileName) => {
    const text = readFile(fileName)
    const edit = change[fileName]
    return text !== undefined && edit ? edit(text) : text
  }
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    file: diagnostic.file ? diagnostic.file.fileName.slice(root.length) : '',
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }))
}

test.group('API contract', () => {
  test('an order field renamed on the server fails the storefront typecheck', ({ assert }) => {
    let renamed = false
    const errors = storefrontErrors({
      [orderPresenter]: (text) => {
        renamed = text.includes('    orderDate: ')
        return text.replace('    orderDate: ', '    placedAt: ')
      },
    })

    assert.isTrue(renamed, 'the order presenter answers orderDate')
    const storefront = errors.filter((error) => error.file.startsWith('resources/storefront/'))
    assert.isAbove(storefront.length, 0)
    assert.isTrue(
      storefront.some((error) => error.message.includes("'orderDate'")),
      storefront.map((error) => `${error.file}: ${error.message}`).join('\n')
    )
  }).timeout(120_000)
})
