/*
| Which randomness a draw (or a waiting room's line) uses, and what happens when it is late.
| Published with every proof (`beaconRule`), for the server, the storefront and the docs alike.
|
| The commitment names one drand quicknet round (shared/draw.ts, `drawRound`). That round, and no
| other, is the randomness: nobody, the operator included, can pick another one afterwards. A
| drand round never changes once published, and it is accepted only with its valid signature, so
| the same round fetched later (from any configured relay, or from a file) is the same
| randomness. Only *when* it is fetched can slip, never *which* round it is.
*/

/** The published rule of the beacon, for a committed round (or before one is committed). */
export function beaconRule(round: number | null): string {
  const which = round ? `drand quicknet round ${round}` : 'the drand quicknet round'
  return (
    `The randomness is ${which} named in the commitment, and no other round. ` +
    'If it cannot be fetched when it is due, the result waits and the same round is fetched ' +
    'later, from any of the configured drand relays (or from a copy of it), accepted only if its ' +
    "signature verifies against quicknet's public key. A published round never changes, so a " +
    'later fetch gives the same randomness: only when it is fetched can slip, never which round.'
  )
}

/** What a customer is told while the promised randomness is late (`dueAt`: a time to show). */
export function beaconDelayNotice(kind: 'draw' | 'line', dueAt: string): string {
  return kind === 'draw'
    ? `The draw is waiting for the public random number it was promised to use (due at ${dueAt}). ` +
        'It has not arrived yet; nothing changes about your entry.'
    : `Places are waiting for the public random number the line was promised to use (due at ${dueAt}). ` +
        'It has not arrived yet; nothing changes about your place in line.'
}
