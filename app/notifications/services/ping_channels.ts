import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import pingsConfig from '#config/pings'
import { AppError } from '#core/exceptions/app_error'
import { affectedRows, isUniqueViolation } from '#core/helpers/db_errors'
import { sqlTime } from '#core/helpers/sql_time'
import { cardVault } from '#core/services/card_vault'
import { canonicalPushKeys, pushKeysProblem } from '#notifications/services/push_keys'

const hashOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex')

/** A customer's Discord webhook, as Discord gives it (any of its hosts, any API version). */
const DISCORD_WEBHOOK =
  /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/(\d{5,25})\/([\w-]{20,120})\/?$/

export type DiscordWebhook = { id: string; token: string }

/** The webhook in a Discord URL, or null when it is not one. */
export function parseDiscordWebhook(url: string): DiscordWebhook | null {
  const match = DISCORD_WEBHOOK.exec(url.trim())
  return match ? { id: match[1], token: match[2] } : null
}

function hostAllowed(host: string) {
  return pingsConfig.pushServiceHosts.some((allowed) =>
    allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed
  )
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Where a push subscription's messages go: an https URL of a browser's push service (the known
 * ones, or PUSH_SERVICE_HOSTS), never an address of ours or of a customer's choosing; plain
 * HTTP only on this machine outside production (a local push service).
 */
export function pushEndpointProblem(endpoint: string): string | null {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'The endpoint must be a URL.'
  }
  const host = url.hostname.toLowerCase()
  const loopbackHttp =
    url.protocol === 'http:' && pingsConfig.allowLoopbackHttp && LOOPBACK.has(host)
  if (url.protocol !== 'https:' && !loopbackHttp) return 'The endpoint must be an https URL.'
  if (url.username || url.password) return 'The endpoint must not carry credentials.'
  if (!hostAllowed(host)) return 'The endpoint is not a push service we send to.'
  return null
}

export type PushSubscriptionInput = { endpoint: string; p256dh: string; auth: string }

/**
 * Where a customer's pings go: the push subscriptions of their browsers and their own Discord
 * webhook (sealed by the vault: its URL is all it takes to post to their channel).
 */
export class PingChannels {
  async overview(userId: number) {
    const [subscriptions, settings] = await Promise.all([
      db.from('push_subscriptions').where('user_id', userId).count('* as total'),
      db.from('ping_settings').where('user_id', userId).first(),
    ])
    return {
      push: {
        available: pingsConfig.vapid !== null,
        publicKey: pingsConfig.vapid?.publicKey ?? null,
        subscriptions: Number(subscriptions[0]?.total ?? 0),
      },
      discord: {
        configured: Boolean(settings?.discord_webhook_vault),
        hint: settings?.discord_hint ?? null,
      },
    }
  }

  /**
   * Saves a browser's subscription (a known endpoint moves to this customer), once its endpoint
   * and keys are ones a message can be sent to and encrypted for.
   */
  async subscribe(userId: number, input: PushSubscriptionInput) {
    if (!pingsConfig.vapid) {
      throw AppError.conflict('Notifications are not set up on this server.', 'push_unavailable')
    }
    const problem = pushEndpointProblem(input.endpoint)
    if (problem) throw AppError.unprocessable(problem, { endpoint: problem }, 'invalid_endpoint')
    const keysProblem = pushKeysProblem(input)
    if (keysProblem) {
      const { field, message } = keysProblem
      throw AppError.unprocessable(message, { [field]: message }, 'invalid_push_keys')
    }
    const hash = hashOf(input.endpoint)
    const fields = {
      user_id: userId,
      endpoint: input.endpoint,
      ...canonicalPushKeys(input),
      updated_at: sqlTime(),
    }
    try {
      await db.table('push_subscriptions').insert({
        ...fields,
        endpoint_hash: hash,
        created_at: sqlTime(),
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      await db.from('push_subscriptions').where('endpoint_hash', hash).update(fields)
    }
    return this.overview(userId)
  }

  async unsubscribe(userId: number, endpoint: string) {
    await db
      .from('push_subscriptions')
      .where('user_id', userId)
      .where('endpoint_hash', hashOf(endpoint))
      .delete()
    return this.overview(userId)
  }

  async setDiscord(userId: number, url: string) {
    const webhook = parseDiscordWebhook(url)
    if (!webhook) {
      const message = 'Paste a Discord webhook URL (https://discord.com/api/webhooks/...).'
      throw AppError.unprocessable(message, { url: message }, 'invalid_discord_webhook')
    }
    const fields = {
      discord_webhook_vault: cardVault.seal(webhook),
      discord_hint: `webhook ${webhook.id.slice(0, 4)}…${webhook.id.slice(-4)}`,
      updated_at: sqlTime(),
    }
    const changed = await db.from('ping_settings').where('user_id', userId).update(fields)
    if (affectedRows(changed) === 0) {
      try {
        await db
          .table('ping_settings')
          .insert({ user_id: userId, ...fields, created_at: sqlTime() })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        await db.from('ping_settings').where('user_id', userId).update(fields)
      }
    }
    return this.overview(userId)
  }

  async clearDiscord(userId: number) {
    await db
      .from('ping_settings')
      .where('user_id', userId)
      .update({ discord_webhook_vault: null, discord_hint: null, updated_at: sqlTime() })
    return this.overview(userId)
  }

  /** Whether the customer has anywhere to be pinged (one indexed look-up per table). */
  async hasAny(userId: number): Promise<boolean> {
    const [subscription, discord] = await Promise.all([
      db.from('push_subscriptions').where('user_id', userId).select('id').first(),
      db
        .from('ping_settings')
        .where('user_id', userId)
        .whereNotNull('discord_webhook_vault')
        .select('user_id')
        .first(),
    ])
    return Boolean(subscription || discord)
  }

  /** Where a customer's pings go now. */
  async targetsOf(userId: number) {
    const [subscriptions, settings] = await Promise.all([
      db
        .from('push_subscriptions')
        .where('user_id', userId)
        .select('id', 'endpoint', 'p256dh', 'auth')
        .orderBy('id', 'asc'),
      db.from('ping_settings').where('user_id', userId).first(),
    ])
    return {
      push: subscriptions.map((row) => ({
        id: Number(row.id),
        endpoint: String(row.endpoint),
        p256dh: String(row.p256dh),
        auth: String(row.auth),
      })),
      discord: settings?.discord_webhook_vault
        ? cardVault.open<DiscordWebhook>(settings.discord_webhook_vault)
        : null,
    }
  }

  /** The push service said this subscription is gone (404/410). */
  async removeSubscription(id: number) {
    await db.from('push_subscriptions').where('id', id).delete()
  }

  /** Discord said this webhook is gone (deleted by its owner). */
  async removeDiscord(userId: number) {
    await this.clearDiscord(userId)
  }

  async noteSent(subscriptionId: number) {
    await db
      .from('push_subscriptions')
      .where('id', subscriptionId)
      .update({ last_sent_at: sqlTime() })
  }
}

export const pingChannels = new PingChannels()
