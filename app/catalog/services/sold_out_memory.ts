/** How long a sell-out is remembered: the longest a freed slot can go unseen by this process. */
export const SOLD_OUT_MEMORY_MS = 1000

/**
 * Products this process has just seen sold out. After a drop sells out, nearly every press of
 * Confirm is for a product with no slot left; remembering that for a second answers them without
 * the database. It is only ever a shortcut to "sold out": while slots remain, the conditional
 * UPDATE of the slot decides. A slot given back here (a cancelled or failed order) or more stock
 * from the console forgets the product at once; another process's change is seen within a
 * second.
 */
export class SoldOutMemory {
  private until = new Map<number, number>()

  has(productId: number): boolean {
    const until = this.until.get(productId)
    if (until === undefined) return false
    if (until > performance.now()) return true
    this.until.delete(productId)
    return false
  }

  remember(productId: number) {
    this.until.set(productId, performance.now() + SOLD_OUT_MEMORY_MS)
  }

  forget(productId: number) {
    this.until.delete(productId)
  }

  clear() {
    this.until.clear()
  }
}

export const soldOutMemory = new SoldOutMemory()
