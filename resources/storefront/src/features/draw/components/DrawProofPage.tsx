import { useEffect, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router-dom'
import { DROP_REASONS, verifyDraw, type DrawVerification } from '@shared/draw'
import { beaconDelayNotice } from '@shared/beacon_rule'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useDrawProof, useInclusionProof } from '../api/useDrawProof'
import { VerificationChecks } from './VerificationChecks'

const ENTRY_ID = /^[0-9a-f-]{36}$/

/**
 * /product/:id/draw: checks a draw in the visitor's browser from the published data alone (the
 * commitment, drand's signed randomness, the entry ids and their root, the seed, the rule), and
 * with `?entry=ID` that the visitor's own entry is in the frozen list. Nothing is trusted to
 * the server: every step is recomputed here (shared/draw.ts).
 */
export function DrawProofPage() {
  const { id } = useParams()
  const [search] = useSearchParams()
  const entry = search.get('entry')
  const entryId = entry && ENTRY_ID.test(entry) ? entry : null
  const proof = useDrawProof(id)
  const closed = proof.data
    ? proof.data.status === 'closed' || proof.data.status === 'drawn'
    : false
  const inclusion = useInclusionProof(id, closed ? entryId : null)
  const [verification, setVerification] = useState<DrawVerification | null>(null)

  useEffect(() => {
    const data = proof.data
    if (!data) return
    if (closed && entryId && !inclusion.data && !inclusion.error) return
    let current = true
    void verifyDraw(data, { inclusion: inclusion.data ?? null }).then((result) => {
      if (current) setVerification(result)
    })
    return () => {
      current = false
    }
  }, [proof.data, inclusion.data, inclusion.error, closed, entryId])

  if (proof.error) {
    return (
      <div className="container page">
        <h1>Draw proof</h1>
        <p className="form-error" role="alert">
          {proof.error.message}
        </p>
      </div>
    )
  }
  if (!proof.data) return <PageLoading />
  const data = proof.data
  const commitment = data.commitment
  const drawn = data.status === 'drawn'
  return (
    <div className="container page draw-proof">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={`/product/${data.productId}`}>Back to the product</Link>
      </nav>
      <h1>Draw proof</h1>
      <p className="lead">
        The winners of this draw are picked at random, from public randomness nobody knows while
        entries are open, not even us. Your browser checks every step below from what we published;
        you need not take our word for it.
      </p>
      <details>
        <summary>How the draw works, step by step</summary>
        <p>
          When entries opened we published a commitment: the SHA-256 of a secret seed, the number of
          slots, the entry window and a future round of drand&apos;s public randomness (quicknet),
          the first at least 60 seconds after entries close. When they closed, the id of every entry
          whose $1.00 card check stood and their Merkle root were published. Each entry&apos;s score
          is HMAC-SHA256(seed, that round&apos;s randomness and the entry id); every one of them is
          ranked, the lowest {data.slots} win and the next ones are the alternates. Nobody, not even
          we, knew the randomness while entries were open, so nobody could tell which entries would
          win. A winner who drops out later keeps their rank and is replaced by the next alternate,
          listed below with the reason.
        </p>
      </details>
      {verification ? (
        <p className={verification.ok ? 'notice' : 'form-error'} role="status">
          {!verification.ok
            ? 'This draw does not verify: see the failed step below.'
            : drawn
              ? `Verified in your browser: the commitment, drand's signature, the entry list and the ${verification.winners.length} winner(s) all check out.`
              : 'Everything published so far checks out in your browser; the rest follows the draw.'}
        </p>
      ) : (
        <p role="status">Checking in your browser...</p>
      )}
      {data.delay ? (
        <p className="notice" data-testid="draw-delay">
          {beaconDelayNotice(
            'draw',
            new Date(data.delay.dueAt).toLocaleTimeString(undefined, {
              hour: 'numeric',
              minute: '2-digit',
            })
          )}
        </p>
      ) : null}
      {inclusion.error ? (
        <p className="form-error" role="alert">
          {inclusion.error.message}
        </p>
      ) : null}
      {verification ? <VerificationChecks checks={verification.checks} /> : null}
      <dl className="draw-proof__facts">
        <dt>Commitment</dt>
        <dd>{commitment ? <code>{commitment.digest}</code> : 'made when entries open'}</dd>
        <dt>Slots</dt>
        <dd>{data.slots}</dd>
        <dt>Randomness</dt>
        <dd>
          {data.beacon ? (
            <>
              drand quicknet round {data.beacon.round}
              {data.beacon.randomness ? (
                <>
                  : <code>{data.beacon.randomness}</code>
                </>
              ) : (
                ' (not published yet)'
              )}
            </>
          ) : (
            'fixed when entries open'
          )}
          {data.beaconRule ? <p className="draw-proof__rule">{data.beaconRule}</p> : null}
        </dd>
        <dt>Entries</dt>
        <dd>
          {data.entryCount}
          {data.entriesRoot ? (
            <>
              {' '}
              (root <code>{data.entriesRoot}</code>)
            </>
          ) : null}
        </dd>
        <dt>Seed</dt>
        <dd>{data.seed ? <code>{data.seed}</code> : 'secret until the draw has run'}</dd>
      </dl>
      {drawn ? (
        <>
          <h2>Winners, in order</h2>
          <ol className="draw-proof__list">
            {data.winners.map((listed) => (
              <li key={listed}>
                <code className={listed === entryId ? 'draw-proof__mine' : undefined}>
                  {listed}
                </code>
              </li>
            ))}
          </ol>
          {data.alternates.length ? (
            <>
              <h2>Alternates, in order</h2>
              <ol className="draw-proof__list draw-proof__alternates">
                {data.alternates.map((listed) => (
                  <li key={listed}>
                    <code className={listed === entryId ? 'draw-proof__mine' : undefined}>
                      {listed}
                    </code>
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {data.replacements?.length ? (
            <>
              <h2>Replacements</h2>
              <ol className="draw-proof__list draw-proof__replacements">
                {data.replacements.map((change) => (
                  <li key={change.entryId}>
                    <code>{change.entryId}</code> ({DROP_REASONS[change.reason] ?? change.reason}
                    ):{' '}
                    {change.replacedBy ? (
                      <>
                        replaced by <code>{change.replacedBy}</code>
                      </>
                    ) : (
                      'no one took this place'
                    )}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
        </>
      ) : null}
      {data.entries.length ? (
        <>
          <h2>Every entry</h2>
          <ul className="draw-proof__list draw-proof__entries">
            {data.entries.map((listed) => (
              <li key={listed}>
                <code className={listed === entryId ? 'draw-proof__mine' : undefined}>
                  {listed}
                </code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}
