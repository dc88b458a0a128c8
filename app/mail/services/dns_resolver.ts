import { readFile, stat } from 'node:fs/promises'
import { promises as dns } from 'node:dns'
import { mailIntakeConfig } from '#config/mail_intake'

type Records = Record<string, string | string[]>

let cached: { path: string; mtimeMs: number; records: Records } | null = null

async function fileRecords(path: string): Promise<Records> {
  const info = await stat(path)
  if (cached && cached.path === path && cached.mtimeMs === info.mtimeMs) return cached.records
  const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`${path} must be a JSON object of TXT records`)
  }
  const records: Records = {}
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (
      typeof value === 'string' ||
      (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    ) {
      records[name.toLowerCase().replace(/\.$/, '')] = value as string | string[]
    }
  }
  cached = { path, mtimeMs: info.mtimeMs, records }
  return records
}

function notFound(name: string) {
  const error = new Error(`queryTxt ENOTFOUND ${name}`) as Error & { code: string }
  error.code = 'ENOTFOUND'
  return error
}

/**
 * The one DNS resolver of the mail intake (DKIM keys, ARC, the SPF and DMARC look-ups mailauth
 * makes): the TXT records of MAIL_INTAKE_DNS_FILE when it is set (installs without outside DNS,
 * and the tests, which sign with their own keys), otherwise the system's DNS.
 */
export async function mailDnsResolver(
  name: string,
  rrtype: string
): Promise<string[][] | string[]> {
  const file = mailIntakeConfig().dnsFile
  if (!file) return dns.resolve(name, rrtype as 'TXT') as Promise<string[][] | string[]>
  const records = await fileRecords(file)
  const value = records[name.toLowerCase().replace(/\.$/, '')]
  if (rrtype !== 'TXT' || value === undefined) throw notFound(name)
  return [Array.isArray(value) ? value : [value]]
}
