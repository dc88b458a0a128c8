import { test } from '@japa/runner'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import app from '@adonisjs/core/services/app'
import env from '#start/env'

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer }

/** A raw request: no client in between that would decompress the body or add headers. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      { host: env.get('HOST'), port: env.get('PORT'), path, method, headers },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          })
        )
      }
    )
    call.on('error', reject)
    call.end()
  })
}

test.group('Built assets go out precompressed, with the right cache', (group) => {
  const folder = `precompress-test-${process.pid}`
  const directory = app.publicPath(`assets/${folder}`)
  const path = `/assets/${folder}/main-3fa9c1.js`
  const source =
    `export const drop = ${JSON.stringify(randomBytes(2048).toString('hex'))}\n`.repeat(4)

  group.setup(async () => {
    await mkdir(directory, { recursive: true })
    await writeFile(`${directory}/main-3fa9c1.js`, source)
    execFileSync('node', ['scripts/precompress.js', directory], { cwd: app.makePath() })
    return () => rm(directory, { recursive: true, force: true })
  })

  test('brotli when accepted: encoded, smaller, the same file once decoded', async ({ assert }) => {
    const answer = await get(path, { 'accept-encoding': 'gzip, deflate, br' })
    assert.equal(answer.status, 200)
    assert.equal(answer.headers['content-encoding'], 'br')
    assert.equal(answer.headers['vary'], 'Accept-Encoding')
    assert.match(answer.headers['content-type'] ?? '', /javascript/)
    assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(Number(answer.headers['content-length']), answer.body.length)
    assert.isBelow(answer.body.length, Buffer.byteLength(source))
    assert.equal(brotliDecompressSync(answer.body).toString(), source)
  })

  test('gzip when brotli is not accepted or refused with q=0', async ({ assert }) => {
    for (const header of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const answer = await get(path, { 'accept-encoding': header })
      assert.equal(answer.headers['content-encoding'], 'gzip', header)
      assert.equal(gunzipSync(answer.body).toString(), source)
    }
  })

  test('the plain file without Accept-Encoding, still cached for a year', async ({ assert }) => {
    const answer = await get(path)
    assert.equal(answer.status, 200)
    assert.isUndefined(answer.headers['content-encoding'])
    assert.equal(answer.body.toString(), source)
    assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable')
  })

  test('HEAD has the headers and no body; a known ETag gets 304', async ({ assert }) => {
    const head = await get(path, { 'accept-encoding': 'br' }, 'HEAD')
    assert.equal(head.status, 200)
    assert.equal(head.headers['content-encoding'], 'br')
    assert.lengthOf(head.body, 0)
    const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': head.headers.etag! })
    assert.equal(again.status, 304)
    assert.lengthOf(again.body, 0)
  })

  test('a path out of public/ is not served', async ({ assert }) => {
    const answer = await get(`/assets/${folder}/..%2F..%2F..%2Fpackage.json`, {
      'accept-encoding': 'br',
    })
    assert.notEqual(answer.status, 200)
  })

  test('the storefront page is revalidated on every visit', async ({ assert }) => {
    const answer = await get('/shop', { 'accept-encoding': 'br' })
    assert.equal(answer.headers['cache-control'], 'no-cache')
  })
})
