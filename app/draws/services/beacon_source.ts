import { fetchBeacon, HttpCachingChain, HttpChainClient } from 'drand-client'
import drawsConfig from '#config/draws'
import { QUICKNET, verifyBeacon, type Beacon } from '#shared/draw'

/** No relay gave the round (none configured, all down, or none with a valid signature). */
export class BeaconUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BeaconUnavailable'
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Quicknet rounds from drand's HTTP relays (DRAND_URLS), through `drand-client`: the chain's
 * info must carry quicknet's hash and public key, and the round's BLS signature must verify
 * (the library checks it, and so does the draw rule in shared/draw.ts). The relays are asked in
 * order; the first valid answer wins. What a relay says is never trusted on its own word.
 */
class BeaconSource {
  private override: string[] | null = null

  relays(): string[] {
    return this.override ?? drawsConfig.drandUrls
  }

  /** Other relays (the tests' local relay of recorded rounds); null puts the configured back. */
  useRelays(urls: string[] | null) {
    this.override = urls
  }

  async fetch(round: number): Promise<Beacon> {
    const relays = this.relays()
    if (relays.length === 0) {
      throw new BeaconUnavailable(
        `No beacon relay is configured (DRAND_URLS): run the draw with a recorded round (dropslot draw:run --beacon FILE).`
      )
    }
    const failures: string[] = []
    for (const relay of relays) {
      try {
        const options = {
          disableBeaconVerification: false,
          noCache: false,
          chainVerificationParams: { chainHash: QUICKNET.chainHash, publicKey: QUICKNET.publicKey },
        }
        const chain = new HttpCachingChain(`${relay}/${QUICKNET.chainHash}`, options)
        const client = new HttpChainClient(chain, options)
        const answer = await withTimeout(
          fetchBeacon(client, round),
          drawsConfig.beaconTimeoutMs,
          relay
        )
        const beacon: Beacon = {
          chainHash: QUICKNET.chainHash,
          round: answer.round,
          randomness: answer.randomness,
          signature: answer.signature,
        }
        if (!(await verifyBeacon(beacon, round))) throw new Error('the round did not verify')
        return beacon
      } catch (error) {
        failures.push(`${new URL(relay).host}: ${(error as Error).message}`)
      }
    }
    throw new BeaconUnavailable(
      `No relay gave quicknet round ${round} (${failures.join('; ')}).`.slice(0, 250)
    )
  }
}

export const beaconSource = new BeaconSource()
