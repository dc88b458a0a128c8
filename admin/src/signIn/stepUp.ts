/*
| Step-up: card data, large refunds and role changes need a second factor presented within the
| last five minutes. When the API answers 403 `step_up_required`, the console asks for the code
| in place (StepUpDialog) and repeats the call once; cancelling shows the refusal as it is.
*/
type Ask = () => Promise<boolean>

let ask: Ask | null = null

/** StepUpDialog registers itself here; calls made before it is mounted are refused as they are. */
export function onStepUp(handler: Ask | null) {
  ask = handler
}

export function isStepUpRefusal(status: number, body: unknown) {
  return status === 403 && (body as { code?: string } | null)?.code === 'step_up_required'
}

/** Runs a call; on a step-up refusal, asks for the factor and runs it once more. */
export async function withStepUp<T>(
  call: () => Promise<T>,
  refusal: (error: unknown) => boolean
): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!refusal(error) || !ask || !(await ask())) throw error
    return call()
  }
}
