import { useEffect, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { verifyDraw, type DrawCheck } from '@shared/draw'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useDrawProof } from '../api/useDrawProof'

const encoder = new TextEncoder()
const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('')

/** HMAC-SHA256 in the browser (WebCrypto): nothing leaves the page. */
async function hmacHex(key: string, message: string) {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign']
  )
  return hex(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)))
}

/**
 * /product/:id/draw: recomputes a draw in the visitor's browser from the published proof alone
 * (seed, entry ids, slots) and says whether it matches what was published.
 */
export function DrawProofPage() {
  const { id } = useParams()
  const proof = useDrawProof(id)
  const [check, setCheck] = useState<DrawCheck | null>(null)

  useEffect(() => {
    const data = proof.data
    if (!data?.seed) return
    let current = true
    void (async () => {
      const check = await verifyDraw(
        { ...data, seed: data.seed! },
        async (text) => hex(await crypto.subtle.digest('SHA-256', encoder.encode(text))),
        hmacHex
      )
      if (current) setCheck(check)
    })()
    return () => {
      current = false
    }
  }, [proof.data])

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
  return (
    <div className="container page draw-proof">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={`/product/${data.productId}`}>Back to the product</Link>
      </nav>
      <h1>Draw proof</h1>
      <p>
        Before any entry, we published the commitment: the SHA-256 of a secret seed. When entries
        close, the winners are the {data.slots} entries with the lowest HMAC-SHA256(seed, entry id).
        Then the seed and every entry id are published here, so anyone can recompute the result.
      </p>
      <dl className="draw-proof__facts">
        <dt>Commitment</dt>
        <dd>
          <code>{data.commitment}</code>
        </dd>
        <dt>Slots</dt>
        <dd>{data.slots}</dd>
        <dt>Entries</dt>
        <dd>{data.entryCount}</dd>
        <dt>Seed</dt>
        <dd>{data.seed ? <code>{data.seed}</code> : 'secret until the draw has run'}</dd>
      </dl>
      {data.seed ? (
        check ? (
          <p
            className={check.commitmentMatches && check.winnersMatch ? 'notice' : 'form-error'}
            role="status"
          >
            {check.commitmentMatches && check.winnersMatch
              ? `Verified in your browser: the seed matches the commitment and the ${check.winners.length} winners are recomputed exactly.`
              : 'This draw does not verify: the recomputed result differs from the published one.'}
          </p>
        ) : (
          <p role="status">Recomputing in your browser...</p>
        )
      ) : (
        <p role="status">The draw has not run yet.</p>
      )}
      {data.seed ? (
        <>
          <h2>Winners, in order</h2>
          <ol className="draw-proof__list">
            {data.winners.map((entryId) => (
              <li key={entryId}>
                <code>{entryId}</code>
              </li>
            ))}
          </ol>
          <h2>Every entry</h2>
          <ul className="draw-proof__list">
            {data.entries.map((entryId) => (
              <li key={entryId}>
                <code>{entryId}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}
