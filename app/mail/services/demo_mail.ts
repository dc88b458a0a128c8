import { createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { dkimSign } from 'mailauth'
import { orderMailAddress } from '#orders/services/order_mail_address'
import type { OrderRecord } from '#orders/services/order_queries'

/*
| The demo's stand-in retailer (`dropslot mail:demo`): Kith's Shopify notifications for the demo
| release's orders, signed with a key made on this machine and published only in the demo's own
| DNS file. An install trusts it only when MAIL_INTAKE_DNS_FILE names that file, which no
| production install does (the command refuses to run in production).
*/

const DEMO_DOMAIN = 'kith.com'
/** A domain that signs correctly but is not Kith's: its mail must land in review. */
const IMPOSTOR_DOMAIN = 'kith-orders.example'

async function keyOf(directory: string, domain: string) {
  const path = join(directory, `${domain}.pem`)
  try {
    return await readFile(path, 'utf8')
  } catch {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    await writeFile(path, pem, { mode: 0o600 })
    return pem
  }
}

/** The public half of a key, as a DKIM TXT record carries it (base64 SPKI). */
function publicOf(pem: string) {
  return createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64')
}

export type DemoMailKind = 'confirmation' | 'cancelled'

function shopifyMail(
  order: OrderRecord,
  to: string,
  kind: DemoMailKind,
  retailerOrder: string
): string {
  const subject =
    kind === 'confirmation'
      ? `Order #${retailerOrder} confirmed`
      : `Order #${retailerOrder} has been canceled`
  const lead =
    kind === 'confirmation'
      ? "Thank you for your purchase!\nWe're getting your order ready to be shipped."
      : `Order #${retailerOrder} was canceled because the item is no longer available. Your payment has been refunded.`
  const total = (order.priceCents / 100).toFixed(2)
  return [
    'From: Kith <orders@kith.com>',
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomUUID()}@kith.com>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Kith',
    `ORDER #${retailerOrder}`,
    '',
    lead,
    '',
    'Order summary',
    `${order.productTitle} × 1`,
    `${order.size} / ${order.style}`,
    '',
    `Total $${total} USD`,
    '',
  ].join('\r\n')
}

async function signAs(message: string, domain: string, pem: string) {
  const signed = await dkimSign(message, {
    // One signing time, given: without it mailauth reads the clock once for what it signs and
    // again for the header it writes, and a second turning in between makes a `t=` that fails.
    signTime: new Date(),
    signatureData: [{ signingDomain: domain, selector: 'demo', privateKey: pem }],
  } as Parameters<typeof dkimSign>[1])
  return signed.signatures + message
}

/**
 * Writes the demo's e-mails into `directory`: a signed confirmation of `confirmed`, a signed
 * confirmation and then a cancellation of `cancelled`, an unsigned copy of the first and a copy of
 * the cancellation signed by another domain; and the DNS file of the demo keys.
 */
export async function writeDemoMail(
  directory: string,
  confirmed: OrderRecord,
  cancelled: OrderRecord
) {
  const dir = resolve(directory)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const kith = await keyOf(dir, DEMO_DOMAIN)
  const impostor = await keyOf(dir, IMPOSTOR_DOMAIN)
  const dnsFile = join(dir, 'dkim.json')
  await writeFile(
    dnsFile,
    JSON.stringify(
      {
        [`demo._domainkey.${DEMO_DOMAIN}`]: `v=DKIM1; k=rsa; p=${publicOf(kith)}`,
        [`demo._domainkey.${IMPOSTOR_DOMAIN}`]: `v=DKIM1; k=rsa; p=${publicOf(impostor)}`,
      },
      null,
      2
    )
  )
  const first = (await orderMailAddress.ensure(confirmed))!
  const second = (await orderMailAddress.ensure(cancelled))!
  const suffix = Date.now().toString().slice(-5)
  const confirmation = shopifyMail(confirmed, first, 'confirmation', `K${suffix}1`)
  const files: [string, string][] = [
    ['1-confirmation.eml', await signAs(confirmation, DEMO_DOMAIN, kith)],
    [
      '2-confirmation-second.eml',
      await signAs(
        shopifyMail(cancelled, second, 'confirmation', `K${suffix}2`),
        DEMO_DOMAIN,
        kith
      ),
    ],
    [
      '3-cancellation-second.eml',
      await signAs(shopifyMail(cancelled, second, 'cancelled', `K${suffix}2`), DEMO_DOMAIN, kith),
    ],
    ['4-forged-confirmation-unsigned.eml', confirmation],
    [
      '5-forged-cancellation-other-domain.eml',
      await signAs(
        shopifyMail(confirmed, first, 'cancelled', `K${suffix}1`),
        IMPOSTOR_DOMAIN,
        impostor
      ),
    ],
  ]
  const paths = []
  for (const [name, body] of files) {
    const path = join(dir, name)
    await writeFile(path, body, { mode: 0o600 })
    paths.push(path)
  }
  return { dnsFile, files: paths }
}
