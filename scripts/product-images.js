/*
| Renders each product illustration (resources/storefront/public/images/products/*.svg) to WebP
| at the widths ProductImage offers in its srcset, with the Debian Chromium. The files are small
| and committed; run again after adding or changing an illustration:
|
|   node scripts/product-images.js [--chrome /usr/bin/chromium]
*/
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import puppeteer from 'puppeteer-core'

/** Keep in step with PRODUCT_IMAGE_WIDTHS in resources/storefront/src/shared/ui/ProductImage.tsx. */
const WIDTHS = [400, 800, 1200]
const dir = fileURLToPath(
  new URL('../resources/storefront/public/images/products', import.meta.url)
)
const { values: flags } = parseArgs({
  options: { chrome: { type: 'string', default: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
})

const browser = await puppeteer.launch({
  executablePath: flags.chrome,
  args: ['--no-sandbox', '--disable-gpu'],
  headless: true,
})
try {
  const page = await browser.newPage()
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.svg'))) {
    const svg = readFileSync(join(dir, file), 'utf8')
    for (const width of WIDTHS) {
      const base64 = await page.evaluate(
        async (source, w) => {
          const image = new Image()
          image.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(source)))}`
          await image.decode()
          const canvas = document.createElement('canvas')
          canvas.width = w
          canvas.height = Math.round((w * 3) / 4)
          canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height)
          return canvas.toDataURL('image/webp', 0.82).split(',')[1]
        },
        svg,
        width
      )
      const out = join(dir, file.replace(/\.svg$/, `-${width}.webp`))
      writeFileSync(out, Buffer.from(base64, 'base64'))
      console.log(`${out} (${Math.round((base64.length * 3) / 4 / 1024)} KB)`)
    }
  }
} finally {
  await browser.close()
}
