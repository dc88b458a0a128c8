import { getConfig } from '../../../shared/config'

export function TermsPage() {
  const { supportEmail } = getConfig()
  return (
    <div className="container narrow prose-page">
      <header className="prose-page__head">
        <p className="eyebrow">Policies</p>
        <h1>Terms of service &amp; privacy</h1>
        <p className="muted">These terms apply to every use of Dropslot.</p>
      </header>
      <article className="prose card">
        <h2>1. The service</h2>
        <p>
          Dropslot is a release-day checkout service. When you buy a slot on a product, you ask us
          to attempt one checkout of that item at the retailer on its release day, using the profile
          you chose. We cannot guarantee that a checkout succeeds: limited releases sell out,
          retailers run raffles and queues, and cards get declined.
        </p>
        <h2>2. Your account</h2>
        <p>
          You must be at least 18 and give accurate details. Keep your password secret; you are
          responsible for what happens under your account. One person, one account.
        </p>
        <h2>3. Profiles and cards</h2>
        <p>
          A profile holds a shipping address, a billing address and a card. By saving a profile you
          authorise us to use it for the checkouts you request with it: the retailer charges the
          item to its card. By saving a card on file in your account you authorise us to place a
          $1.00 verification hold on it when you buy a slot and to charge our service fee to it when
          the retailer confirms your order. Card numbers are stored encrypted and are only used for
          what you asked for.
        </p>
        <h2>4. Fees</h2>
        <p>
          The price shown is our service fee and does not include the item. The fee is charged only
          after the retailer confirms a successful order. See the refund policy for failed and
          completed orders.
        </p>
        <h2>5. Fair use</h2>
        <p>
          One slot per profile per product. Profiles that use someone else&apos;s card or identity,
          or that exist only to get around limits, may be removed and their orders cancelled.
        </p>
        <h2>6. Privacy</h2>
        <p>
          We collect what the service needs: your name, e-mail, phone, addresses, card details and
          your orders. We share them only with the retailer of an order you requested and with our
          payment provider. We never sell personal data. If you subscribe to the newsletter we
          e-mail you about releases; every e-mail has an unsubscribe link. You can ask us to export
          or delete your data at any time.
        </p>
        <h2>7. Changes and contact</h2>
        <p>
          We will tell you by e-mail before these terms change in a way that matters. Questions:{' '}
          <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      </article>
    </div>
  )
}
