import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The newest modification time under a file or folder (dependencies and outputs left out). */
export function newestMtime(target) {
  if (!existsSync(target)) return 0
  const stats = statSync(target)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}
