import { test } from '@japa/runner'
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import webPush from 'web-push'
// @ts-expect-error plain JavaScript module of the start script, without type declarations
import { addMissingKeys, ensureEnvFile, readEnvFile } from '../../../scripts/env_file.js'

const root = path.resolve(import.meta.dirname, '../../..')

/** A fresh folder with the project's .env.example, as a new checkout has. */
async function checkout() {
  const dir = await mkdtemp(path.join(tmpdir(), 'dropslot-env-'))
  await copyFile(path.join(root, '.env.example'), path.join(dir, '.env.example'))
  return { dir, url: pathToFileURL(`${dir}/`) }
}

test.group('Web push keys in .env (scripts/env_file.js)', () => {
  test('a new .env gets its own VAPID key pair, one web-push accepts', async ({ assert }) => {
    const keys: string[] = []
    for (let install = 0; install < 2; install++) {
      const { dir, url } = await checkout()
      try {
        assert.isTrue(ensureEnvFile(url))
        const env = readEnvFile(url)
        const publicKey = Buffer.from(env.VAPID_PUBLIC_KEY, 'base64url')
        assert.lengthOf(publicKey, 65)
        assert.equal(publicKey[0], 4, 'an uncompressed P-256 point')
        assert.lengthOf(Buffer.from(env.VAPID_PRIVATE_KEY, 'base64url'), 32)
        assert.doesNotThrow(() =>
          webPush.setVapidDetails(
            'mailto:ops@example.test',
            env.VAPID_PUBLIC_KEY,
            env.VAPID_PRIVATE_KEY
          )
        )
        keys.push(env.VAPID_PRIVATE_KEY)
        // A .env made now has them: nothing to add.
        assert.deepEqual(addMissingKeys(url), [])
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
    assert.notEqual(keys[0], keys[1], 'every install its own')
  })

  test('an older .env gains the pair once; its values are never changed', async ({ assert }) => {
    const { dir, url } = await checkout()
    try {
      const older = 'APP_KEY=keep-me\nPORT=4000'
      await writeFile(path.join(dir, '.env'), older)
      assert.deepEqual(addMissingKeys(url), ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'])
      const text = await readFile(path.join(dir, '.env'), 'utf8')
      assert.isTrue(text.startsWith(`${older}\n`))
      const env = readEnvFile(url)
      assert.equal(env.APP_KEY, 'keep-me')
      assert.lengthOf(Buffer.from(env.VAPID_PUBLIC_KEY, 'base64url'), 65)
      assert.deepEqual(addMissingKeys(url), [], 'once')
      assert.equal(await readFile(path.join(dir, '.env'), 'utf8'), text)

      // A .env that has a key of its own keeps it, even when the other one is missing.
      await writeFile(path.join(dir, '.env'), 'VAPID_PUBLIC_KEY=mine\n')
      assert.deepEqual(addMissingKeys(url), [])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
