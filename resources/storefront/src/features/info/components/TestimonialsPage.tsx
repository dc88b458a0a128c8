import { SocialTimeline } from '../../../shared/thirdparty/SocialTimeline'

const TESTIMONIALS = [
  {
    name: 'Maya R.',
    city: 'Chicago',
    item: "Air Jordan 1 'Chicago'",
    text: 'I was in a lecture at 10 a.m. and the confirmation hit my inbox at 10:02. The fee only came after.',
  },
  {
    name: 'Dev P.',
    city: 'Austin',
    item: 'Nike SB Dunk Low',
    text: 'Missed one, got one. The miss showed as Not secured and I was not charged a cent. That is the whole pitch.',
  },
  {
    name: 'Luis G.',
    city: 'Miami',
    item: 'Kith Box Logo Hoodie',
    text: 'Set up two profiles on Sunday, had a hoodie on Monday. The wizard took two minutes.',
  },
  {
    name: 'Aisha K.',
    city: 'Brooklyn',
    item: 'Samba OG',
    text: 'Support answered my sizing question on release morning in under ten minutes.',
  },
  {
    name: 'Tom B.',
    city: 'Leeds',
    item: 'Palace Tri-Ferg Cap',
    text: 'Shopify queue drops are brutal. Dropslot got me through while I slept.',
  },
  {
    name: 'Jen W.',
    city: 'Seattle',
    item: "NB 990v6 'Daytona'",
    text: 'Clear pricing, the $1.00 check dropped off my statement a few days later like they said.',
  },
]

export function TestimonialsPage() {
  return (
    <div className="container prose-page">
      <header className="prose-page__head">
        <p className="eyebrow">Testimonials</p>
        <h1>Release days, won</h1>
        <p className="lead">What customers say after their slots came through.</p>
      </header>
      <div className="testimonials">
        <div className="testimonials__grid">
          {TESTIMONIALS.map((t, index) => (
            <figure key={`${t.name}-${index}`} className="card quote-card">
              <div className="stars" aria-label="5 out of 5 stars">
                ★★★★★
              </div>
              <blockquote>“{t.text}”</blockquote>
              <figcaption>
                <strong>{t.name}</strong> · {t.city}
                <span className="quote-card__item">{t.item}</span>
              </figcaption>
            </figure>
          ))}
        </div>
        <aside className="testimonials__timeline" aria-label="Social timeline">
          <SocialTimeline
            fallback={
              <div className="card timeline-fallback">
                <h2>Follow the drops</h2>
                <p className="muted">
                  Our social timeline shows here when it is switched on for this site.
                </p>
              </div>
            }
          />
        </aside>
      </div>
    </div>
  )
}
