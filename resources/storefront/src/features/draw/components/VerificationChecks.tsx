import type { Check } from '@shared/draw'

const LABEL: Record<Check['name'], string> = {
  commitment: 'Commitment',
  seed: 'Seed',
  beacon: 'Public randomness',
  entries: 'Entry list',
  winners: 'Result',
  inclusion: 'Your entry',
}

const MARK: Record<Check['status'], string> = {
  pass: 'Checked',
  fail: 'Failed',
  pending: 'Not yet',
}

/** The steps of a verification, each with what was checked, as the browser found them. */
export function VerificationChecks({ checks }: { checks: Check[] }) {
  return (
    <ul className="draw-proof__checks">
      {checks.map((check) => (
        <li key={check.name} className={`draw-proof__check draw-proof__check--${check.status}`}>
          <strong>
            {LABEL[check.name]}: {MARK[check.status]}
          </strong>{' '}
          <span>{check.detail}</span>
        </li>
      ))}
    </ul>
  )
}
