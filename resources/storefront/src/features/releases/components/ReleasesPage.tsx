import { Link } from 'react-router-dom'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useReleases } from '../api/useReleases'
import { percent, releaseDate } from './words'

/**
 * /releases: how the service did on past releases (each one's success rate, its public report)
 * and each retailer's rate over the last 90 days. No account needed.
 */
export function ReleasesPage() {
  const releases = useReleases()
  if (releases.error) {
    return (
      <div className="container page">
        <h1>Release results</h1>
        <p className="form-error" role="alert">
          {releases.error.message}
        </p>
      </div>
    )
  }
  if (!releases.data) return <PageLoading />
  const data = releases.data
  return (
    <div className="container page releases">
      <h1>Release results</h1>
      <p className="muted">
        Every release we checked out, once each order has its result: how many went through, and how
        each retailer did over the last {data.windowDays} days. No personal data, ever.
      </p>
      <section aria-labelledby="retailers-title">
        <h2 id="retailers-title">By retailer, last {data.windowDays} days</h2>
        {data.retailers.length === 0 ? (
          <p className="muted">No release has finished in that time.</p>
        ) : (
          <div className="table-scroll">
            <table className="report-table">
              <thead>
                <tr>
                  <th scope="col">Retailer</th>
                  <th scope="col">Releases</th>
                  <th scope="col">Submitted</th>
                  <th scope="col">Succeeded</th>
                  <th scope="col">Success rate</th>
                </tr>
              </thead>
              <tbody>
                {data.retailers.map((row) => (
                  <tr key={row.retailer}>
                    <th scope="row" className="capitalize">
                      {row.retailer}
                    </th>
                    <td>{row.releases}</td>
                    <td>{row.submitted}</td>
                    <td>{row.succeeded}</td>
                    <td>{percent(row.successRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="past-title">
        <h2 id="past-title">Past releases</h2>
        {data.releases.length === 0 ? (
          <p className="muted">No release report is out yet.</p>
        ) : (
          <ul className="releases__list">
            {data.releases.map((release) => (
              <li key={release.productId} className="card releases__item">
                <Link to={`/releases/${release.productId}`} className="releases__title">
                  {release.title}
                </Link>
                <span className="muted">
                  {releaseDate(release.releaseAt)} ·{' '}
                  <span className="capitalize">{release.retailer}</span>
                  {release.releaseMode === 'draw' ? ' · draw' : ''}
                </span>
                <span className="releases__rate">
                  <strong>{percent(release.successRate)}</strong> succeeded ({release.succeeded} of{' '}
                  {release.submitted} submitted)
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
