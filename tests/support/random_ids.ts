const RANDOM_IDS =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\bDS-[0-9A-Z]{6,8}\b/gi

/**
 * A text as a reader sees it, with its random ids (UUIDs, order numbers) blanked out: hex and
 * base32 spell any four digits now and then, so a search for a card's last four must skip them.
 */
export function withoutRandomIds(text: string) {
  return text.replaceAll(RANDOM_IDS, '<id>')
}
