/*
| An address as a postal service reads it, so one place written two ways is one place: the form
| the one-entry-per-address rule compares (under a keyed hash, `draw_keys.ts`).
|
| 1. Unicode NFKC (full-width and compatibility forms become plain ones).
| 2. A field that has Latin letters has its look-alike Cyrillic and Greek letters folded to the
|    Latin ones ("Mаin" with a Cyrillic "а" is "Main"); a field with no Latin letter is a real
|    Cyrillic or Greek address and is transliterated instead ("ул. Ленина" is "ul lenina"), so two
|    different Cyrillic addresses stay different. Other scripts are kept as they are, never dropped.
| 3. Case and accents folded; punctuation and spacing ignored.
| 4. Street suffixes and directions in their postal abbreviations (Street -> st, Avenue -> ave,
|    North -> n, ...), unit designators (Apt, Apartment, Unit, Suite, #, No.) as one "#".
| 5. ZIP+4 reduced to the ZIP; other postal codes without spaces or dashes; country names to
|    their code where the name is a common way to write it.
*/

/** Cyrillic and Greek letters that look like Latin ones (Unicode's confusables, the common ones). */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  Ԛ: 'Q',
  Ԝ: 'W',
  Һ: 'H',
  Ӏ: 'I',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ѵ: 'v',
  ԍ: 'g',
  // Greek
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
  α: 'a',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
  ϳ: 'j',
}

/** Transliteration of Cyrillic (Russian, Ukrainian, Belarusian, Serbian) and Greek, lower case. */
const TRANSLITERATION: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  ѕ: 'dz',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ў: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  џ: 'dz',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  α: 'a',
  ά: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  έ: 'e',
  ζ: 'z',
  η: 'i',
  ή: 'i',
  θ: 'th',
  ι: 'i',
  ί: 'i',
  ϊ: 'i',
  ΐ: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  ό: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  ύ: 'y',
  ϋ: 'y',
  ΰ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  ώ: 'o',
}

/** USPS Publication 28 abbreviations of the common street suffixes and directions. */
const SUFFIXES: Record<string, string> = {
  street: 'st',
  str: 'st',
  st: 'st',
  avenue: 'ave',
  av: 'ave',
  ave: 'ave',
  avn: 'ave',
  road: 'rd',
  rd: 'rd',
  boulevard: 'blvd',
  boul: 'blvd',
  blvd: 'blvd',
  drive: 'dr',
  drv: 'dr',
  dr: 'dr',
  lane: 'ln',
  ln: 'ln',
  court: 'ct',
  ct: 'ct',
  place: 'pl',
  pl: 'pl',
  square: 'sq',
  sq: 'sq',
  terrace: 'ter',
  ter: 'ter',
  parkway: 'pkwy',
  pkwy: 'pkwy',
  pky: 'pkwy',
  highway: 'hwy',
  hwy: 'hwy',
  circle: 'cir',
  cir: 'cir',
  trail: 'trl',
  trl: 'trl',
  alley: 'aly',
  aly: 'aly',
  crescent: 'cres',
  cres: 'cres',
  expressway: 'expy',
  expy: 'expy',
  freeway: 'fwy',
  fwy: 'fwy',
  plaza: 'plz',
  plz: 'plz',
  center: 'ctr',
  centre: 'ctr',
  ctr: 'ctr',
  heights: 'hts',
  hts: 'hts',
  mount: 'mt',
  mt: 'mt',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
}

/** Unit designators: whichever is written, the unit number that follows is what counts. */
const UNITS = new Set([
  '#',
  'apt',
  'apartment',
  'unit',
  'suite',
  'ste',
  'no',
  'number',
  'num',
  'flat',
  'room',
  'rm',
  'bldg',
  'building',
  'fl',
  'floor',
  'lot',
  'space',
  'spc',
])

const COUNTRIES: Record<string, string> = {
  'usa': 'us',
  'united states': 'us',
  'united states of america': 'us',
  'america': 'us',
  'united kingdom': 'uk',
  'gb': 'uk',
  'great britain': 'uk',
  'england': 'uk',
  'canada': 'ca',
  'japan': 'jp',
  'netherlands': 'nl',
  'germany': 'de',
  'france': 'fr',
}

const LATIN = /\p{Script=Latin}/u
const MARKS = /\p{M}/gu

/** Folds look-alikes when the text has Latin letters, transliterates it when it has none. */
function toLatin(text: string): string {
  const mixed = LATIN.test(text)
  let out = ''
  for (const char of text) {
    const folded = mixed ? LOOK_ALIKES[char] : undefined
    if (folded) {
      out += folded
      continue
    }
    const lower = char.toLowerCase()
    out += TRANSLITERATION[lower] ?? lower
  }
  return out
}

/** One field in its normal form: the words, folded and abbreviated, separated by spaces. */
export function normalizeField(value: string | null | undefined): string {
  const latin = toLatin((value ?? '').normalize('NFKC'))
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
  const words = latin
    .replace(/#/g, ' # ')
    .split(/[^\p{L}\p{N}#]+/u)
    .filter(Boolean)
  const out: string[] = []
  for (const word of words) {
    if (UNITS.has(word)) {
      if (out.at(-1) !== '#') out.push('#')
      continue
    }
    out.push(SUFFIXES[word] ?? word)
  }
  return out.join(' ')
}

/** A postal code as compared: a US ZIP+4 is its ZIP; others without spaces and dashes. */
export function normalizePostalCode(zip: string | null | undefined, country: string): string {
  const compact = normalizeField(zip).replace(/\s+/g, '')
  if (country === 'us') {
    const digits = compact.replace(/\D/g, '')
    if (digits.length === 9 || digits.length === 5) return digits.slice(0, 5)
  }
  return compact
}

export function normalizeCountry(country: string | null | undefined): string {
  const name = normalizeField(country)
  return COUNTRIES[name] ?? (name || 'us')
}

/** The address in its normal form: street (both lines), postal code and country. */
export function addressNormalForm(address: {
  address1: string
  address2?: string | null
  zip: string
  country?: string | null
}): string {
  const country = normalizeCountry(address.country)
  const street = [normalizeField(address.address1), normalizeField(address.address2)]
    .filter(Boolean)
    .join(' ')
  return `${street}|${normalizePostalCode(address.zip, country)}|${country}`
}
