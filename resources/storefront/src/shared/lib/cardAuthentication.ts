import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { ApiError } from '../api/client'
import { useConfirmCard } from '../api/useConfirmCard'
import type { CardAuthentication, CardSaveAnswer, UserInfo } from '@shared/api/contract'
import { handleCardAction } from '../thirdparty/cardProvider'

/** The query parameter a challenge page returns with (Stripe's redirect uses the same name). */
const RETURN_PARAM = 'setup_intent'

const UNAVAILABLE =
  'Your bank asks you to confirm this card, but we cannot show its check right now. Please try again later.'

/**
 * The challenge page's link with where to come back to. The server's link carries its own query
 * (the sandbox page's pass, `?t=`), so the return path is added to it, never in its place.
 */
export function challengeLink(challengeUrl: string, returnTo: string) {
  const separator = challengeUrl.includes('?') ? '&' : '?'
  return `${challengeUrl}${separator}return_to=${encodeURIComponent(returnTo)}`
}

/**
 * Takes the customer through their bank's 3-D Secure challenge for a card being saved: Stripe's
 * overlay when Stripe.js is configured ('answered': confirm now), otherwise the sandbox's
 * challenge page in this window ('redirected': it sends the customer back to `returnTo`).
 */
export async function authenticateCard(
  authentication: CardAuthentication,
  returnTo: string
): Promise<'answered' | 'redirected'> {
  if (authentication.clientSecret && (await handleCardAction(authentication.clientSecret))) {
    return 'answered'
  }
  if (authentication.challengeUrl) {
    window.location.assign(challengeLink(authentication.challengeUrl, returnTo))
    return 'redirected'
  }
  throw new ApiError(UNAVAILABLE, 0, 'card_authentication_unavailable')
}

const NOT_CONFIRMED = 'Your bank has not confirmed this card yet. Please try again.'

/** Errors whose message speaks to the customer about their card (shown as they are). */
export function isCardRefusal(caught: unknown): caught is ApiError {
  return (
    caught instanceof ApiError &&
    ['card_declined', 'card_authentication_failed', 'card_authentication_unavailable'].includes(
      caught.code
    )
  )
}

/**
 * The answer of billing/set with a card: saved, or the challenge first. With Stripe's overlay the
 * card is confirmed here; with the challenge page the customer leaves ('redirected') and
 * `useCardAuthenticationReturn` finishes on their return to `returnTo`.
 */
export async function finishCardSave(
  answer: CardSaveAnswer,
  returnTo: string,
  confirm: (setupId: string) => Promise<CardSaveAnswer>
): Promise<UserInfo | 'redirected'> {
  if ('user' in answer) return answer.user
  const how = await authenticateCard(answer.authentication, returnTo)
  if (how === 'redirected') return how
  const confirmed = await confirm(answer.authentication.setupId)
  if (!('user' in confirmed)) throw new ApiError(NOT_CONFIRMED, 402, 'card_authentication_failed')
  return confirmed.user
}

/** This page's path and query, as the challenge page should send the customer back to it. */
export function currentPath(location: { pathname: string; search: string }) {
  const params = new URLSearchParams(location.search)
  params.delete(RETURN_PARAM)
  const query = params.toString()
  return query ? `${location.pathname}?${query}` : location.pathname
}

export type CardReturn =
  | { status: 'idle' }
  | { status: 'confirming' }
  | { status: 'saved'; user: UserInfo }
  | { status: 'failed'; message: string }

/**
 * Back from the challenge page (`?setup_intent=...`): asks the server whether the card was
 * saved, once, and takes the parameter off the address.
 */
export function useCardAuthenticationReturn(): CardReturn {
  const location = useLocation()
  const navigate = useNavigate()
  const confirm = useConfirmCard()
  const setupId = new URLSearchParams(location.search).get(RETURN_PARAM)
  const [state, setState] = useState<CardReturn>(
    setupId ? { status: 'confirming' } : { status: 'idle' }
  )
  const started = useRef<string | null>(null)

  // Asks with the screen's latest calls and address; the effect decides when (once per setup).
  const ask = useEffectEvent((id: string) => {
    setState({ status: 'confirming' })
    confirm
      .run(id)
      .then((result) =>
        setState(
          result.success
            ? { status: 'saved', user: result.user }
            : { status: 'failed', message: NOT_CONFIRMED }
        )
      )
      .catch((caught: unknown) =>
        setState({
          status: 'failed',
          message:
            caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.',
        })
      )
      .finally(() => void navigate(currentPath(location), { replace: true }))
  })

  useEffect(() => {
    if (!setupId || started.current === setupId) return
    started.current = setupId
    ask(setupId)
  }, [setupId])

  return state
}
