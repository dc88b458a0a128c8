export type SandboxGatewayOptions = {
  latencyMs: number
  requestsPerSecond: number
  webhookSecret: string
  webhookToleranceSeconds: number
  /** An uncaptured hold lapses this long after it was authorised (default 168). */
  holdExpiryHours?: number
  /**
   * The budget shared by every process (a real gateway counts per account, not per
   * caller): true when this request fits in the current second. Unset: this process's own.
   */
  sharedBudget?: (requestsPerSecond: number) => Promise<boolean>
}

/** What every resource of the sandbox shares: its options and the way in (rate and latency). */
export type SandboxContext = {
  options: SandboxGatewayOptions
  enter(): Promise<void>
}
