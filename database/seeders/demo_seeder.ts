import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import { BaseSeeder } from '@adonisjs/lucid/seeders'
import User from '#accounts/models/user'
import { secondFactor } from '#accounts/services/second_factor'
import Product from '#catalog/models/product'
import Profile from '#profiles/models/profile'
import PromoCode from '#checkout/models/promo_code'
import { SHOE_SIZES } from '#catalog/services/catalog_service'
import { profileService } from '#profiles/services/profile_service'
import { billingCardService } from '#accounts/services/billing_card_service'
import { paymentService } from '#payments/services/payment_service'
import paymentsConfig from '#config/payments'
import { checkoutService } from '#checkout/services/checkout_service'
import { holdWorker } from '#payments/services/hold_worker'
import { productAdminService } from '#catalog/services/product_admin_service'
import { seedDemoRetailers } from '#database/demo/demo_retailers'
import { drawRunner } from '#draws/services/draw_runner'
import { clock } from '#core/services/clock'
import { sqlTime } from '#core/helpers/sql_time'
import EmailMessage from '#notifications/models/email_message'
import { withLogLevelAtMost } from '#core/services/ops_log'
import { RECORDED_ROUNDS } from '#database/fixtures/quicknet_rounds'
import { BEACON_DELAY_SECONDS, roundTime } from '#shared/draw'
import {
  demoCustomerDrawEntry,
  demoCustomerReleaseDayOrder,
  pastReleaseDemo,
} from '#database/demo/demo_outcomes'
import { DEMO_CUSTOMER_CARD, DEMO_CUSTOMER_STRIPE_TOKEN } from '#database/demo/demo_cards'
import { seedDemoCatalogue } from '#database/demo/demo_catalogue'

export { DEMO_PRODUCTS } from '#database/demo/demo_catalogue'

export const DEMO_CUSTOMER = { email: 'customer@dropslot.test', password: 'dropslot-demo' }
export const DEMO_ADMIN = { email: 'admin@dropslot.test', password: 'dropslot-admin' }
/**
 * The demo admin's authenticator secret (base32, RFC 6238), printed in the README beside the
 * password so a newcomer adds it to an authenticator app; seeded outside production only.
 */
export const DEMO_ADMIN_TOTP_SECRET = 'DROPSLOTDEMOADMINTOTPSECRET23456'
export const DEMO_PROMO = 'DROP10'

/**
 * Draw demo: one draw taking entries now, one that was drawn on a recorded round of drand's
 * quicknet (round 657413, 15 September 2023), so its proof verifies without any network.
 */
export const DEMO_DRAWS = {
  open: { slug: 'nike-dunk-low-panda-draw', title: "Nike Dunk Low 'Panda' (Draw)" },
  drawn: { slug: 'kith-990v6-cyclades-draw', title: "Kith x New Balance 990v6 'Cyclades' (Draw)" },
  /** A first-come drop with a waiting room: its line forms now, its sale opens in 10 minutes. */
  waitingRoom: {
    slug: 'nike-air-max-1-waiting-room',
    title: "Nike Air Max 1 '86 'Big Bubble' (Waiting room)",
  },
}

/**
 * Release-day demo: a product whose release time has passed, with pending orders (holds placed)
 * from a few customers, so `npx dropslot release:run` right after `npm start` shows a release.
 */
export const DEMO_RELEASE = {
  slug: 'new-balance-990v6-release-day-demo',
  title: "New Balance 990v6 'Release Day Demo'",
  customers: [
    { email: 'avery@dropslot.test', name: 'Avery Chen', card: '2223003122003222' },
    { email: 'sam@dropslot.test', name: 'Sam Okafor', card: '6011111111111117' },
    { email: 'riley@dropslot.test', name: 'Riley Novak', card: '5105105105105100' },
    { email: 'morgan@dropslot.test', name: 'Morgan Diaz', card: '4000056655665556' },
  ],
}

const DEMO_ADDRESS = {
  address1: '148 Lafayette St',
  address2: 'Apt 4',
  firstName: 'Jordan',
  lastName: 'Rivera',
  city: 'New York',
  zip: '10013',
  state: 'NY',
  country: 'US',
}

export default class DemoSeeder extends BaseSeeder {
  static environment = ['development', 'test']

  async run() {
    if (app.inProduction) {
      throw new Error('The demo seeder refuses to run in production.')
    }
    await withLogLevelAtMost('warn', () => this.seed())
  }

  private async seed() {
    await seedDemoCatalogue()
    await seedDemoRetailers()
    await PromoCode.firstOrCreate(
      { code: DEMO_PROMO },
      { percent: 10, active: true, uses: 0, maxUses: 1000, startsAt: null, expiresAt: null }
    )

    await this.demoAdmin()
    const customer = await this.demoCustomer()
    await this.demoCustomerCard(customer)
    await this.demoCustomerProfiles(customer)

    await this.releaseDayDemo()
    await this.drawDemo()
    await this.demoCustomerOrders()
  }

  /** The owner account, its authenticator enrolled with the known secret. */
  private async demoAdmin() {
    const admin = await User.firstOrCreate(
      { email: DEMO_ADMIN.email },
      { password: DEMO_ADMIN.password, name: 'Dropslot Admin', role: 'owner' }
    )
    if ((await secondFactor.stateOf(admin.id)) === 'enrol') {
      await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    }
  }

  private async demoCustomer() {
    return User.firstOrCreate(
      { email: DEMO_CUSTOMER.email },
      {
        password: DEMO_CUSTOMER.password,
        name: 'Jordan Rivera',
        firstName: 'Jordan',
        lastName: 'Rivera',
        phone: '2125550148',
        role: 'customer',
        billingAddress: {
          line1: DEMO_ADDRESS.address1,
          line2: DEMO_ADDRESS.address2,
          city: DEMO_ADDRESS.city,
          postal_code: DEMO_ADDRESS.zip,
          state: DEMO_ADDRESS.state,
          country: DEMO_ADDRESS.country,
        },
      }
    )
  }

  /**
   * The card on file goes through the configured gateway (the sandbox by default), so the
   * demo customer's $1.00 hold and fee can really be placed and charged.
   */
  private async demoCustomerCard(customer: User) {
    if (!customer.cardPaymentMethodId) {
      let token = DEMO_CUSTOMER_STRIPE_TOKEN
      if (paymentsConfig.gateway !== 'stripe') {
        const created = await paymentService.createCardToken(
          {
            name: 'Jordan Rivera',
            number: DEMO_CUSTOMER_CARD,
            expMonth: 12,
            expYear: DateTime.now().year + 3,
            cvc: '123',
            addressZip: DEMO_ADDRESS.zip,
          },
          customer.id
        )
        token = created.id
      }
      await billingCardService.saveToken(customer, token)
    }
  }

  /** Home and Office, made once: each with its own address and card. */
  private async demoCustomerProfiles(customer: User) {
    const existing = await Profile.query().where('user_id', customer.id).count('* as total')
    if (Number(existing[0].$extras.total) === 0) {
      const year = String(DateTime.now().year + 3)
      await profileService.create(customer, {
        profileName: 'Home',
        email: customer.email,
        phone: '2125550148',
        shipping: DEMO_ADDRESS,
        billing: DEMO_ADDRESS,
        card: { name: 'Jordan Rivera', number: DEMO_CUSTOMER_CARD, code: '123', month: '12', year },
      })
      const office = {
        ...DEMO_ADDRESS,
        address1: '350 5th Ave',
        address2: 'Floor 21',
        zip: '10118',
      }
      await profileService.create(customer, {
        profileName: 'Office',
        email: customer.email,
        phone: '2125550148',
        shipping: office,
        billing: office,
        card: { name: 'Jordan Rivera', number: '5200828282828210', code: '321', month: '08', year },
      })
    }
  }

  /**
   * The demo customer's orders in the states the orders page shows (database/demo/
   * demo_outcomes.ts, kept out of seeders/, where every file is a seeder): an entry in the open
   * draw, and a settled past release with its report.
   * Their slot on the release-day demo is taken in `releaseDayDemo`, with the others'.
   */
  private async demoCustomerOrders() {
    await demoCustomerDrawEntry(DEMO_DRAWS.open.slug, DEMO_CUSTOMER.email)
    await pastReleaseDemo(
      DEMO_CUSTOMER.email,
      DEMO_RELEASE.customers.map((customer) => customer.email)
    )
  }

  /** Idempotent: each draw product is made once; the closed one is entered and drawn then. */
  private async drawDemo() {
    const hour = (value: number) => DateTime.now().plus({ hours: value }).startOf('minute')
    if (!(await Product.findBy('slug', DEMO_DRAWS.open.slug))) {
      await productAdminService.create({
        title: DEMO_DRAWS.open.title,
        slug: DEMO_DRAWS.open.slug,
        image: '/images/products/nike-sb-dunk-low-pro-chocolate.svg',
        description: 'A draw: enter before entries close; the winners are drawn verifiably.',
        priceCents: 3000,
        sizeType: 'shoe',
        styles: 'White / Black',
        tags: 'nike',
        retailer: 'nike',
        totalStock: 100,
        releaseAt: hour(24 * 4),
        releaseMode: 'draw',
        entryOpensAt: hour(-1),
        entryClosesAt: hour(24 * 2),
      })
    }
    if (!(await Product.findBy('slug', DEMO_DRAWS.waitingRoom.slug))) {
      await productAdminService.create({
        title: DEMO_DRAWS.waitingRoom.title,
        slug: DEMO_DRAWS.waitingRoom.slug,
        image: '/images/products/nike-air-jordan-1-high-og-chicago.svg',
        description:
          'A first-come drop behind a waiting room: join the line before the sale opens.',
        priceCents: 2500,
        sizeType: 'shoe',
        styles: 'Sport Red',
        tags: 'nike',
        retailer: 'nike',
        totalStock: 200,
        releaseAt: hour(24 * 3),
        queueOpensAt: DateTime.now().plus({ minutes: 10 }).startOf('minute'),
        queueMinutes: 30,
        queueRatePerMinute: 30,
      })
    }
    if (await Product.findBy('slug', DEMO_DRAWS.drawn.slug)) return
    // The drawn draw is replayed as it happened: its entries closed a minute before recorded
    // quicknet round 657413 was published, so the product's clock is set to then while it is
    // entered and drawn (never in production: the demo is not seeded there), and given back.
    const beacon = RECORDED_ROUNDS[657413]
    const closesAt = (roundTime(beacon.round) - BEACON_DELAY_SECONDS) * 1000
    const releaseAt = hour(24 * 3)
    const year = String(DateTime.now().year + 3)
    const before = await EmailMessage.query().max('id as last').first()
    clock.freeze(closesAt - 30 * 60_000)
    try {
      await this.drawnDraw(beacon, closesAt, releaseAt, year)
    } finally {
      clock.reset()
    }
    // The replay's e-mails were written on its clock: dated when they were seeded instead, so the
    // console's "oldest wait" of the outbox is the demo's age, not the replayed draw's.
    await EmailMessage.query()
      .where('id', '>', Number(before?.$extras.last ?? 0))
      .update({ created_at: sqlTime(), updated_at: sqlTime() })
  }

  /** The draw whose entries closed on 15 September 2023 and that was drawn on round 657413. */
  private async drawnDraw(
    beacon: (typeof RECORDED_ROUNDS)[657413],
    closesAt: number,
    releaseAt: DateTime,
    year: string
  ) {
    const drawn = await productAdminService.create({
      title: DEMO_DRAWS.drawn.title,
      slug: DEMO_DRAWS.drawn.slug,
      image: '/images/products/kith-new-balance-990v6-daytona.svg',
      description:
        'A draw that has run on public randomness: its commitment, entries, beacon and seed are published, check the winners.',
      priceCents: 4000,
      sizeType: 'shoe',
      styles: 'Cyclades',
      tags: 'kith',
      retailer: 'kith',
      totalStock: 2,
      releaseAt,
      releaseMode: 'draw',
      entryOpensAt: DateTime.fromMillis(closesAt - 3_600_000),
      entryClosesAt: DateTime.fromMillis(closesAt),
    })
    for (const [index, demo] of DEMO_RELEASE.customers.entries()) {
      const user = await User.findByOrFail('email', demo.email)
      const [firstName, lastName] = demo.name.split(' ')
      const address = { ...DEMO_ADDRESS, address1: `${20 + index} Mercer St`, firstName, lastName }
      const profile = await profileService.create(user, {
        profileName: `${firstName} draw`,
        email: user.email,
        phone: user.phone ?? '2125550100',
        shipping: address,
        billing: address,
        card: {
          name: demo.name,
          number: demo.card,
          code: '456',
          month: '11',
          year,
        },
      })
      await checkoutService.checkout(user, {
        productId: drawn.id,
        style: 'Cyclades',
        size: '10',
        profileId: profile.publicId,
      })
    }
    await holdWorker.drain()
    clock.freeze(roundTime(beacon.round) * 1000 + 1000)
    await drawRunner.run(drawn.id, { label: 'demo seed' }, { beacon })
  }

  /** Idempotent: the orders are made once, when the demo product is first created. */
  private async releaseDayDemo() {
    if (await Product.findBy('slug', DEMO_RELEASE.slug)) return
    // Slots are sold before the release time, so the product opens first and is moved into
    // the past once its orders exist.
    const product = await Product.create({
      slug: DEMO_RELEASE.slug,
      title: DEMO_RELEASE.title,
      image: `/images/products/${DEMO_RELEASE.slug}.svg`,
      description: 'A demo release whose time has come: run `npx dropslot release:run`.',
      priceCents: 3500,
      sizeType: 'shoe',
      sizes: SHOE_SIZES,
      styles: 'Grey / Grey',
      tags: 'new balance',
      // Sold through Kith's Shopify store: its signed e-mail proves the orders (mail:demo).
      retailer: 'kith',
      avail: true,
      totalStock: 50,
      stockTaken: 0,
      releaseAt: DateTime.now().plus({ hours: 1 }).startOf('minute'),
    })
    const year = DateTime.now().year + 3
    for (const [index, demo] of DEMO_RELEASE.customers.entries()) {
      const [firstName, lastName] = demo.name.split(' ')
      const user = await User.firstOrCreate(
        { email: demo.email },
        {
          password: DEMO_CUSTOMER.password,
          name: demo.name,
          firstName,
          lastName,
          phone: `212555${String(100 + index).padStart(4, '0')}`,
          role: 'customer',
        }
      )
      if (!user.cardPaymentMethodId && paymentsConfig.gateway !== 'stripe') {
        const token = await paymentService.createCardToken(
          {
            name: demo.name,
            number: demo.card,
            expMonth: 11,
            expYear: year,
            cvc: '456',
            addressZip: DEMO_ADDRESS.zip,
          },
          user.id
        )
        await billingCardService.saveToken(user, token.id)
      }
      for (const size of ['9', '10.5']) {
        const address = { ...DEMO_ADDRESS, firstName, lastName }
        const profile = await profileService.create(user, {
          profileName: `${firstName} ${size}`,
          email: user.email,
          phone: user.phone ?? '2125550100',
          shipping: address,
          billing: address,
          card: {
            name: demo.name,
            number: demo.card,
            code: '456',
            month: '11',
            year: String(year),
          },
        })
        await checkoutService.checkout(user, {
          productId: product.id,
          style: 'Grey / Grey',
          size,
          profileId: profile.publicId,
        })
      }
    }
    // The demo customer's slot too, so release:run brings them a result (and a ping).
    await demoCustomerReleaseDayOrder(product, DEMO_CUSTOMER.email)
    await holdWorker.drain()
    product.releaseAt = DateTime.now().minus({ minutes: 10 }).startOf('minute')
    await product.save()
  }
}
