export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  )
}

export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner />
    </div>
  )
}
