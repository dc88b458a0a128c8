import { readFileSync, existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { generatedDocs } from '../../../scripts/docs/generated_docs.js'
import { envVariables } from '../../../scripts/docs/configuration_reference.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

function markdownFiles() {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file))
  return ['README.md', ...docs]
}

/** GitHub's anchors of a Markdown file's headings. */
function anchorsOf(text: string) {
  return new Set(
    [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]
        .trim()
        .toLowerCase()
        .replaceAll(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-')
    )
  )
}

test.group('Generated docs', () => {
  test('docs/cli.md and docs/configuration.md say what the code says', async ({ assert }) => {
    for (const [path, text] of Object.entries(await generatedDocs())) {
      const current = existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : ''
      assert.isTrue(current === text, `${path} is out of date: run npm run docs:generate`)
    }
  })

  test('every variable of start/env.ts says what it means', ({ assert }) => {
    const unexplained = envVariables(join(ROOT, 'start', 'env.ts'))
      .filter((variable) => !variable.meaning)
      .map((variable) => variable.name)
    assert.deepEqual(unexplained, [], 'give each a JSDoc in start/env.ts')
  })

  test('every link of the README and docs/ leads to a file and heading that exist', ({
    assert,
  }) => {
    const broken: string[] = []
    for (const file of markdownFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      // Links outside code: [text](target), relative ones only.
      const prose = text.replaceAll(/```[\s\S]*?```/g, '').replaceAll(/`[^`\n]*`/g, '')
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue
        const [path, anchor] = target.split('#')
        const linked = path ? resolve(dirname(join(ROOT, file)), path) : join(ROOT, file)
        if (!existsSync(linked)) {
          broken.push(`${file}: ${target} (no such file)`)
          continue
        }
        if (
          anchor &&
          linked.endsWith('.md') &&
          !anchorsOf(readFileSync(linked, 'utf8')).has(anchor)
        ) {
          broken.push(`${file}: ${target} (no such heading)`)
        }
      }
    }
    assert.deepEqual(broken, [])
  })
})
