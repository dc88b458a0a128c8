import { useEffect, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router-dom'
import { verifyLine, type DrawVerification } from '@shared/draw'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useLineProof } from '../api/useDrawProof'
import { VerificationChecks } from './VerificationChecks'

/**
 * /product/:id/line: a waiting room's places, checked in the visitor's browser the way a draw
 * is (commitment, drand's signature, the members' root, the order), and with `?member=ID` the
 * visitor's own place.
 */
export function LineProofPage() {
  const { id } = useParams()
  const [search] = useSearchParams()
  const member = search.get('member')
  const proof = useLineProof(id)
  const [verification, setVerification] = useState<DrawVerification | null>(null)

  useEffect(() => {
    if (!proof.data) return
    let current = true
    void verifyLine(proof.data).then((result) => {
      if (current) setVerification(result)
    })
    return () => {
      current = false
    }
  }, [proof.data])

  if (proof.error) {
    return (
      <div className="container page">
        <h1>Waiting room line</h1>
        <p className="form-error" role="alert">
          {proof.error.message}
        </p>
      </div>
    )
  }
  if (!proof.data) return <PageLoading />
  const data = proof.data
  const place = member ? data.order.indexOf(member) + 1 : 0
  return (
    <div className="container page draw-proof">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={`/product/${data.productId}`}>Back to the product</Link>
      </nav>
      <h1>Waiting room line</h1>
      <p>
        When the line formed we published a commitment: the SHA-256 of a secret seed and a future
        round of drand&apos;s public randomness, after the line closes a minute before the sale. The
        places are that round&apos;s ranking of everyone in line, so arriving earlier gave nobody an
        advantage and nobody could choose the order.
      </p>
      {verification ? (
        <p className={verification.ok ? 'notice' : 'form-error'} role="status">
          {verification.ok
            ? data.status === 'ordered'
              ? `Verified in your browser: the ${data.order.length} places follow from drand's signed randomness.`
              : 'Everything published so far checks out; the places follow the beacon round.'
            : 'This line does not verify: see the failed step below.'}
        </p>
      ) : (
        <p role="status">Checking in your browser...</p>
      )}
      {member && data.status === 'ordered' ? (
        <p className="notice" role="status">
          {place > 0
            ? `Your place, recomputed here: ${place} of ${data.order.length}.`
            : 'This member id joined after the line closed: its place comes after the line.'}
        </p>
      ) : null}
      {verification ? <VerificationChecks checks={verification.checks} /> : null}
      {data.order.length ? (
        <>
          <h2>Places</h2>
          <ol className="draw-proof__list">
            {data.order.map((listed) => (
              <li key={listed}>
                <code className={listed === member ? 'draw-proof__mine' : undefined}>{listed}</code>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  )
}
