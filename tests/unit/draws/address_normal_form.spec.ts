import { test } from '@japa/runner'
import { addressNormalForm } from '#draws/services/address_normal_form'

const at = (address1: string, extra: { address2?: string; zip?: string; country?: string } = {}) =>
  addressNormalForm({
    address1,
    address2: extra.address2 ?? '',
    zip: extra.zip ?? '10001',
    country: extra.country ?? 'US',
  })

/** One place written the ways people (and bots) write it. */
const SAME_PLACE: [string, Parameters<typeof at>[1]?][][] = [
  [
    ['1 Main Street Apt 4'],
    ['1 main st #4'],
    ['1 MAIN ST., APARTMENT 4'],
    ['1 Main St', { address2: 'Unit 4' }],
    ['1 main street', { address2: '#4' }],
    ['1 Main St Suite 4'],
  ],
  [['12 North Elm Avenue'], ['12 N Elm Ave'], ['12 n. elm av.']],
  [
    ['500 Sunset Boulevard'],
    ['500 Sunset Blvd'],
    ['500 Sunset Blvd', { zip: '10001-1234' }],
    ['500 Sunset Blvd', { zip: '100011234' }],
  ],
  // Full-width forms and accents.
  [['77 Rue de la Paix'], ['７７ Rue de la Paix'], ['77 Rué de la Paix']],
  // Cyrillic and Greek look-alikes inside a Latin address.
  [['9 Main Street'], ['9 Mаin Street'], ['9 Μain Ѕtreet'], ['9 MAIN STREET']],
  // A Cyrillic address, in any case and with or without its abbreviations' dots.
  [
    ['ул. Ленина 5, кв. 12', { country: 'RU', zip: '101000' }],
    ['УЛ ЛЕНИНА 5 КВ 12', { country: 'RU', zip: '101000' }],
  ],
  [
    ['USA spelled out', { country: 'United States' }],
    ['USA spelled out', { country: 'US' }],
  ],
]

/** Different places that a careless normal form would merge. */
const DIFFERENT: [string, Parameters<typeof at>[1]?][] = [
  ['1 Main Street Apt 4'],
  ['1 Main Street Apt 5'],
  ['1 Main Street'],
  ['11 Main Street Apt 4'],
  ['1 Main Avenue Apt 4'],
  ['1 Main Street Apt 4', { zip: '10002' }],
  ['1 Main Street Apt 4', { country: 'CA' }],
  ['ул. Ленина 5', { country: 'RU', zip: '101000' }],
  ['ул. Пушкина 5', { country: 'RU', zip: '101000' }],
  ['ул. Ленина 7', { country: 'RU', zip: '101000' }],
  ['οδός Ερμού 10', { country: 'GR', zip: '10563' }],
  ['οδός Αιόλου 10', { country: 'GR', zip: '10563' }],
  ['東京都千代田区1', { country: 'JP', zip: '1000001' }],
  ['東京都港区1', { country: 'JP', zip: '1000001' }],
]

test.group('Address normal form (one entry per address)', () => {
  test('the same place written differently collides', ({ assert }) => {
    for (const group of SAME_PLACE) {
      const forms = group.map(([line, extra]) => at(line, extra))
      for (const form of forms)
        assert.equal(form, forms[0], `${group.map(([line]) => line).join(' / ')}`)
    }
  })

  test('different places never collide, whatever their script', ({ assert }) => {
    const forms = DIFFERENT.map(([line, extra]) => at(line, extra))
    assert.equal(new Set(forms).size, forms.length, forms.join('\n'))
  })

  test('non-Latin addresses are transliterated, never dropped', ({ assert }) => {
    assert.equal(at('ул. Ленина 5', { country: 'RU', zip: '101000' }), 'ul lenina 5|101000|ru')
    assert.include(at('東京都千代田区1', { country: 'JP', zip: '100-0001' }), '東京都千代田区1')
  })
})
