import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import { BaseSeeder } from '@adonisjs/lucid/seeders'
import User from '#accounts/models/user'
import { secondFactor } from '#accounts/services/second_factor'
import Product from '#catalog/models/product'
import Profile from '#profiles/models/profile'
import PromoCode from '#checkout/models/promo_code'
import { CLOTHING_SIZES, ONE_SIZE, SHOE_SIZES } from '#catalog/services/catalog_service'
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

type DemoProduct = {
  slug: string
  title: string
  priceCents: number
  sizeType: 'shoe' | 'clothing' | 'OS'
  sizes: string[]
  styles: string
  tags: string
  /** Who sells it (the mail intake's retailers). */
  retailer: string
  totalStock: number
  stockTaken: number
  releaseInHours: number
  description: string
}

const hours = (value: number) => value

/** Realistic demo catalogue: released and upcoming drops across the four brand tags. */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    // The spec's fallback sample product.
    slug: 'dropslot-sample-tee',
    retailer: 'kith',
    title: 'Dropslot Sample Tee',
    priceCents: 5000,
    sizeType: 'clothing',
    sizes: ['XS', 'S', 'M', 'L', 'XL'],
    styles: 'Black,White',
    tags: 'adidas',
    totalStock: 500,
    stockTaken: 7,
    releaseInHours: hours(24 * 6),
    description: 'Heavyweight cotton tee from the adidas archive capsule.',
  },
  {
    slug: 'adidas-samba-og-cloud-white',
    retailer: 'adidas',
    title: "adidas Samba OG 'Cloud White'",
    priceCents: 2500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Cloud White / Core Black',
    tags: 'adidas',
    totalStock: 300,
    stockTaken: 41,
    releaseInHours: hours(24 * 3),
    description: 'The terrace classic in its original colourway. Limited pairs per store.',
  },
  {
    slug: 'nike-air-jordan-1-high-og-chicago',
    retailer: 'nike',
    title: "Air Jordan 1 Retro High OG 'Chicago'",
    priceCents: 4500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Varsity Red / White / Black',
    tags: 'nike',
    totalStock: 200,
    stockTaken: 188,
    releaseInHours: hours(30),
    description: 'The most requested colourway returns on SNKRS. Expect an instant sell-out.',
  },
  {
    slug: 'nike-sb-dunk-low-pro-chocolate',
    retailer: 'nike',
    title: "Nike SB Dunk Low Pro 'Chocolate'",
    priceCents: 3000,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Chocolate / Sail',
    tags: 'nike',
    totalStock: 150,
    stockTaken: 150,
    releaseInHours: hours(-48),
    description: 'Released two days ago. Results are in.',
  },
  {
    slug: 'kith-box-logo-hoodie-nocturnal',
    retailer: 'kith',
    title: "Kith Box Logo Hoodie 'Nocturnal'",
    priceCents: 2000,
    sizeType: 'clothing',
    sizes: CLOTHING_SIZES,
    styles: 'Nocturnal,Sandrift',
    tags: 'kith',
    totalStock: 250,
    stockTaken: 12,
    releaseInHours: hours(24 * 8),
    description: 'Monday Program drop. Two colourways, every size.',
  },
  {
    slug: 'kith-new-balance-990v6-daytona',
    retailer: 'kith',
    title: "Kith x New Balance 990v6 'Daytona'",
    priceCents: 3500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Daytona Blue',
    tags: 'kith',
    totalStock: 120,
    stockTaken: 0,
    releaseInHours: hours(24 * 12),
    description: 'Made in USA collaboration, raffle only at Kith flagships and online.',
  },
  {
    slug: 'palace-tri-ferg-cap',
    retailer: 'palace',
    title: 'Palace Tri-Ferg 6-Panel Cap',
    priceCents: 1500,
    sizeType: 'OS',
    sizes: ONE_SIZE,
    styles: 'OS',
    tags: 'shopify',
    totalStock: 400,
    stockTaken: 55,
    releaseInHours: hours(24 * 2),
    description: 'Thursday drop on a Shopify storefront: queue-protected, fast checkout.',
  },
  {
    slug: 'union-jordan-4-off-noir',
    retailer: 'union',
    title: "Union LA x Air Jordan 4 'Off Noir'",
    priceCents: 5500,
    sizeType: 'shoe',
    sizes: SHOE_SIZES,
    styles: 'Off Noir / Brigade Blue',
    tags: 'shopify,nike',
    totalStock: 80,
    stockTaken: 9,
    releaseInHours: hours(24 * 5),
    description: 'Boutique release through a Shopify checkout; tiny allocation.',
  },
]

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
    for (const item of DEMO_PRODUCTS) {
      await Product.firstOrCreate(
        { slug: item.slug },
        {
          title: item.title,
          image: `/images/products/${item.slug}.svg`,
          description: item.description,
          priceCents: item.priceCents,
          sizeType: item.sizeType,
          sizes: item.sizes,
          styles: item.styles,
          tags: item.tags,
          retailer: item.retailer,
          avail: true,
          totalStock: item.totalStock,
          stockTaken: item.stockTaken,
          releaseAt: DateTime.now().plus({ hours: item.releaseInHours }).startOf('minute'),
        }
      )
    }

    await seedDemoRetailers()
    await PromoCode.firstOrCreate(
      { code: DEMO_PROMO },
      { percent: 10, active: true, uses: 0, maxUses: 1000, startsAt: null, expiresAt: null }
    )

    const admin = await User.firstOrCreate(
      { email: DEMO_ADMIN.email },
      { password: DEMO_ADMIN.password, name: 'Dropslot Admin', role: 'owner' }
    )
    if ((await secondFactor.stateOf(admin.id)) === 'enrol') {
      await secondFactor.enrolKnownSecret(admin.id, DEMO_ADMIN_TOTP_SECRET)
    }

    const customer = await User.firstOrCreate(
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

    // The card on file goes through the configured gateway (the sandbox by default), so the
    // demo customer's $1.00 hold and fee can really be placed and charged.
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

    await this.releaseDayDemo()
    await this.drawDemo()
    await this.demoCustomerOrders()
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
