const NETWORKS = [
  {
    name: 'Twitter',
    color: '#0b0b0f',
    text: 'Post your wins automatically when a slot comes through.',
  },
  {
    name: 'Instagram',
    color: '#d62976',
    text: 'Share release-day results to your story with one tap.',
  },
  {
    name: 'Facebook',
    color: '#1877f2',
    text: 'Let your group know which drops you are going for.',
  },
]

const SAMPLE_POSTS = [
  {
    network: 'Twitter',
    text: "Secured a slot for the Air Jordan 1 'Chicago' on @dropslot. Fingers crossed for Saturday.",
  },
  { network: 'Instagram', text: 'Release-day W: Kith Box Logo Hoodie, checked out while I slept.' },
]

export function IntegrationsPage() {
  return (
    <div className="container prose-page">
      <header className="prose-page__head">
        <p className="eyebrow">Integrations</p>
        <h1>Connect your socials</h1>
        <p className="lead">
          Share your slots and wins. Connections are optional and can be removed at any time.
        </p>
      </header>
      <div className="integrations">
        {NETWORKS.map((network) => (
          <section key={network.name} className="card integration">
            <span
              className="integration__logo"
              style={{ background: network.color }}
              aria-hidden="true"
            >
              {network.name[0]}
            </span>
            <h2>{network.name}</h2>
            <p className="muted">{network.text}</p>
            <button
              type="button"
              className="btn btn--secondary"
              disabled
              aria-describedby="integrations-note"
            >
              Connect {network.name}
            </button>
          </section>
        ))}
      </div>
      <p id="integrations-note" className="fine-print">
        Social connections are not switched on for this store yet.
      </p>
      <section className="section">
        <h2>Sample posts</h2>
        <div className="quotes">
          {SAMPLE_POSTS.map((post) => (
            <figure key={post.text} className="quote-card card">
              <blockquote>{post.text}</blockquote>
              <figcaption>{post.network} · sample</figcaption>
            </figure>
          ))}
        </div>
      </section>
    </div>
  )
}
