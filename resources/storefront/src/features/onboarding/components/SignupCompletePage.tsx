import { ButtonLink } from '../../../shared/ui/Button'
import { IconCheck } from '../../../shared/ui/icons'

export function SignupCompletePage() {
  return (
    <div className="container narrow center-page">
      <span className="big-check" aria-hidden="true">
        <IconCheck width={36} height={36} />
      </span>
      <h1>You&apos;re all set</h1>
      <p className="muted">
        Your account, billing address and card are saved. Pick a drop, choose a size and a profile,
        and we will check it out for you on release day.
      </p>
      <div className="row-gap center">
        <ButtonLink to="/shop">Start shopping</ButtonLink>
        <ButtonLink to="/user/profiles" variant="secondary">
          Manage profiles
        </ButtonLink>
      </div>
    </div>
  )
}
