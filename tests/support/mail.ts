import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authenticate, dkimSign, sealMessage } from 'mailauth'
import Product from '#catalog/models/product'
import { releaseConfig } from '#release/services/release_config'
import { releaseRunner } from '#release/services/release_runner'
import { FilesEngine } from '#release/services/checkout_engines'
import { releasedProductWithOrders } from '#tests/support/release'
import env from '#start/env'
import { mailDnsResolver } from '#mail/services/dns_resolver'

/*
| Retailer e-mails for the tests: the fixtures in tests/fixtures/mail are written for the tests in
| each retailer's format (never real customers' mail), filled in and DKIM-signed here with keys
| made for this run; MAIL_INTAKE_DNS_FILE points the intake's resolver at their public halves.
*/

export const INTAKE_DOMAIN = 'in.dropslot.test'

type Key = { privateKey: string; publicKey: string }
const keys = new Map<string, Key>()

function keyFor(domain: string): Key {
  let key = keys.get(domain)
  if (!key) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 1024 })
    key = {
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      publicKey: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    }
    keys.set(domain, key)
  }
  return key
}

/** The signing domains the tests use: each retailer's, and one nobody trusts. */
export const SIGNING_DOMAINS: Record<string, string> = {
  nike: 'official.nike.com',
  adidas: 'info.adidas.com',
  footlocker: 'e.footlocker.com',
  kith: 'kith.com',
  palace: 'palaceskateboards.com',
  union: 'unionlosangeles.com',
  forger: 'kith-support.example',
}

/** The ARC sealers the tests forward through: a catch-all provider's and a stranger's. */
export const SEALING_DOMAINS = {
  trusted: 'google.com',
  untrusted: 'forwarder.example',
}

let dnsFile: string | null = null

/** Turns the intake on for a test: the domain and a DNS file of every test signing key. */
export async function useMailIntake() {
  if (!dnsFile) {
    const records: Record<string, string> = {}
    for (const domain of [...Object.values(SIGNING_DOMAINS), ...Object.values(SEALING_DOMAINS)]) {
      records[`test._domainkey.${domain}`] = `v=DKIM1; k=rsa; p=${keyFor(domain).publicKey}`
    }
    const directory = await mkdtemp(join(tmpdir(), 'dropslot-dns-'))
    process.once('exit', () => rmSync(directory, { recursive: true, force: true }))
    dnsFile = join(directory, 'dkim.json')
    await writeFile(dnsFile, JSON.stringify(records))
  }
  env.set('MAIL_INTAKE_DOMAIN', INTAKE_DOMAIN)
  env.set('MAIL_INTAKE_DNS_FILE', dnsFile)
  return dnsFile
}

export type RetailerMail = {
  retailer: string
  kind: 'confirmation' | 'shipped' | 'cancelled'
  to: string
  orderNumber?: string
  size?: string
  item?: string
  messageId?: string
}

/** A retailer's e-mail from its fixture, unsigned. */
export async function retailerMail(mail: RetailerMail) {
  const template = await readFile(
    new URL(`../fixtures/mail/${mail.retailer}-${mail.kind}.eml`, import.meta.url),
    'utf8'
  )
  const values: Record<string, string> = {
    to: mail.to,
    orderNumber: mail.orderNumber ?? `R${Math.floor(Math.random() * 1e9)}`,
    size: mail.size ?? '9',
    item: mail.item ?? 'Test Runner Black',
    total: '25.00',
    tracking: '1Z999AA10123456784',
    date: new Date().toUTCString().replace('GMT', '+0000'),
    messageId: mail.messageId ?? `${randomUUID()}@${SIGNING_DOMAINS[mail.retailer] ?? 'x.test'}`,
  }
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')
}

/**
 * Signs a message as `domain` (DKIM, selector `test`) with the test key of that domain; over
 * the headers of `headerList` only (`From:To:...`), or the first `bodyLength` bytes (`l=`).
 */
export async function sign(
  message: string,
  domain: string,
  options: { headerList?: string; bodyLength?: number } = {}
) {
  const signed = await dkimSign(message, {
    // One signing time (see demo_mail.ts): mailauth's own default reads the clock twice.
    signTime: new Date(),
    ...(options.headerList ? { headerList: options.headerList } : {}),
    signatureData: [
      {
        signingDomain: domain,
        selector: 'test',
        privateKey: keyFor(domain).privateKey,
        ...(options.bodyLength === undefined ? {} : { maxBodyLength: options.bodyLength }),
      },
    ],
  } as any)
  return Buffer.from(signed.signatures + message)
}

/** A retailer's e-mail signed by its own domain. */
export async function signedRetailerMail(mail: RetailerMail) {
  return sign(await retailerMail(mail), SIGNING_DOMAINS[mail.retailer])
}

/** The Authentication-Results a receiver at `mta` writes for `message` (DKIM through the DNS file). */
export async function authenticationResults(message: Buffer, mta: string) {
  const auth = await authenticate(message, {
    resolver: mailDnsResolver,
    ip: '127.0.0.1',
    helo: 'mail.retailer.test',
    mta,
    disableArc: true,
    disableDmarc: true,
    disableBimi: true,
  } as any)
  const match = /Authentication-Results: ([\s\S]*?)\r\n$/.exec(auth.headers)
  if (!match) throw new Error('no Authentication-Results')
  return match[1]
}

/**
 * A message as a forwarder hands it on: it received `message`, wrote what it saw (its own
 * Authentication-Results, or `authResults`), added a footer to the body (which breaks the
 * retailer's DKIM signature) and ARC-sealed the result as `sealer` (i=1).
 */
export async function arcForward(
  message: Buffer,
  sealer: string,
  options: { authResults?: string; footer?: string; headerList?: string } = {}
) {
  const authResults = options.authResults ?? (await authenticationResults(message, sealer))
  const forwarded = Buffer.concat([
    message,
    Buffer.from(options.footer ?? '\r\n--\r\nForwarded by the catch-all mailbox.\r\n'),
  ])
  const seal = await sealMessage(forwarded, {
    signTime: new Date(),
    signingDomain: sealer,
    selector: 'test',
    privateKey: keyFor(sealer).privateKey,
    authResults,
    cv: 'none',
    ...(options.headerList ? { headerList: options.headerList } : {}),
  } as any)
  return Buffer.concat([seal, forwarded])
}

/** A message sealed again by a next hop `sealer` (ARC i+1, cv=pass when the chain verifies). */
export async function arcReseal(message: Buffer, sealer: string) {
  const auth = await authenticate(message, {
    resolver: mailDnsResolver,
    ip: '127.0.0.1',
    helo: 'mail.forwarder.test',
    mta: sealer,
    disableDmarc: true,
    disableBimi: true,
    seal: {
      signTime: new Date(),
      signingDomain: sealer,
      selector: 'test',
      privateKey: keyFor(sealer).privateKey,
    },
  } as any)
  // The seal's headers come first, the receiver's own Authentication-Results last: keep the seal.
  const seal = auth.headers.slice(0, auth.headers.indexOf('Received-SPF:'))
  return Buffer.concat([Buffer.from(seal), message])
}

/**
 * `count` orders of a released product of `retailer` at a fee of `priceCents`, handed to the
 * files engine (processing, each with its own intake address); `directory` holds their tasks,
 * inside the run's own task folder (tests/bootstrap.ts), which goes when the run ends.
 */
export async function ordersAtTheBot(
  count: number,
  options: { retailer?: string; priceCents: number }
) {
  const { product, orders } = await releasedProductWithOrders(count, {
    priceCents: options.priceCents,
  })
  await Product.query()
    .where('id', product.id)
    .update({ retailer: options.retailer ?? 'kith' })
  const runTasks = releaseConfig().filesDir
  await mkdir(runTasks, { recursive: true })
  const directory = await mkdtemp(join(runTasks, 'mail-tasks-'))
  await releaseRunner.run({ productId: product.id, engine: new FilesEngine(directory) })
  for (const order of orders) await order.refresh()
  return { product, orders, directory }
}
