import { Link, useParams } from 'react-router-dom'
import { PageLoading } from '../../../shared/ui/Spinner'
import { useReleaseReport } from '../api/useReleaseReport'
import { dollars, outcomeWords, percent, releaseDate } from './words'

/**
 * /releases/:id: the public outcome report of one release, once every order has its result.
 * A signed-in customer's own order is highlighted; nothing says whose the other lines are.
 */
export function ReleaseReportPage() {
  const { id } = useParams()
  const report = useReleaseReport(id)
  if (report.error) {
    return (
      <div className="container page">
        <nav className="breadcrumbs" aria-label="Breadcrumb">
          <Link to="/releases">All release results</Link>
        </nav>
        <h1>Release report</h1>
        <p className="notice" role="status">
          {report.error.message}
        </p>
      </div>
    )
  }
  if (!report.data) return <PageLoading />
  const data = report.data
  const mine = data.lines.filter((line) => line.mine)
  const facts: [string, string | number][] = [
    ['Slots', data.slots],
    ...(data.draw
      ? ([
          ['Draw entries', data.draw.entries],
          ['Selected', data.draw.selected],
        ] as [string, number][])
      : ([['Orders', data.orders]] as [string, number][])),
    ['Submitted', data.submitted],
    ['Succeeded', data.succeeded],
    ['Success rate', percent(data.successRate)],
  ]
  return (
    <div className="container page report">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to="/releases">All release results</Link>
      </nav>
      <h1>{data.product.title}</h1>
      <p className="muted">
        Released {releaseDate(data.product.releaseAt)} ·{' '}
        <span className="capitalize">{data.product.retailer}</span>
        {data.product.releaseMode === 'draw' ? ' · draw' : ''} · outcome report
      </p>
      {mine.length > 0 ? (
        <div className="notice notice--success report__mine" role="status">
          Your order{mine.length > 1 ? 's' : ''}, highlighted below:
          <ul>
            {mine.map((line, index) => (
              <li key={index}>
                Size {line.size}: {outcomeWords(line)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <dl className="report__facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="outcomes-title">
        <h2 id="outcomes-title">What happened to the orders</h2>
        <ul className="report__reasons">
          <li>
            Not secured, nothing charged: <strong>{data.failed.total}</strong> (sold out{' '}
            {data.failed.soldOut}, declined at the retailer {data.failed.declined}, address rejected{' '}
            {data.failed.address}, above the buyer&apos;s price cap {data.failed.aboveCap}, other{' '}
            {data.failed.other})
          </li>
          <li>
            Cancelled by the retailer after success: <strong>{data.cancelledAfterSuccess}</strong>
          </li>
          <li>
            Never submitted (card check declined, not selected, cancelled):{' '}
            <strong>{data.notSubmitted}</strong>
          </li>
        </ul>
      </section>
      <section aria-labelledby="sizes-title">
        <h2 id="sizes-title">By size</h2>
        <div className="table-scroll">
          <table className="report-table">
            <thead>
              <tr>
                <th scope="col">Size</th>
                <th scope="col">Orders</th>
                <th scope="col">Submitted</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Not secured</th>
                <th scope="col">Success rate</th>
              </tr>
            </thead>
            <tbody>
              {data.bySize.map((size) => (
                <tr
                  key={size.size}
                  className={mine.some((line) => line.size === size.size) ? 'report-row--mine' : ''}
                >
                  <th scope="row">
                    {size.size.toLowerCase() === 'os' ? 'OS' : size.size.toUpperCase()}
                  </th>
                  <td>{size.orders}</td>
                  <td>{size.submitted}</td>
                  <td>{size.succeeded}</td>
                  <td>{size.failed.total + size.cancelledAfterSuccess}</td>
                  <td>{percent(size.successRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {data.wins.byRetailer.length > 0 ? (
        <section aria-labelledby="wins-title">
          <h2 id="wins-title">Where the slots were won</h2>
          <p>
            By retailer:{' '}
            {data.wins.byRetailer.map((entry) => `${entry.name} ${entry.won}`).join(', ')}. By size
            bought:{' '}
            {data.wins.bySize.map((entry) => `${entry.size.toUpperCase()} ${entry.won}`).join(', ')}
            . A slot tried at several retailers and sizes is won once, for one fee.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="fees-title">
        <h2 id="fees-title">Fees</h2>
        <p>
          Charged {dollars(data.fees.chargedCents)} · refunded {dollars(data.fees.refundedCents)} ·
          kept {dollars(data.fees.netCents)}. A fee is charged only when the retailer confirms the
          order; a failed order costs nothing.
        </p>
      </section>
      <section aria-labelledby="lines-title">
        <h2 id="lines-title">Every order</h2>
        <ol className="report__lines">
          {data.lines.map((line, index) => (
            <li
              key={index}
              className={`report-line report-line--${line.outcome}${line.mine ? ' report-line--mine' : ''}`}
              aria-current={line.mine ? 'true' : undefined}
            >
              <span className="report-line__size">
                {line.size.toLowerCase() === 'os' ? 'OS' : line.size.toUpperCase()}
              </span>
              <span>{outcomeWords(line)}</span>
              {line.mine ? <span className="report-line__you">Yours</span> : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="checks-title">
        <h2 id="checks-title">Checked when built</h2>
        <ul className="report__checks">
          {data.checks.map((check) => (
            <li key={check.name}>
              {check.ok ? '✓' : '✗'} {check.name}: {check.detail}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
