import { useEffect, useEffectEvent, useRef } from 'react'
import { Field, SelectField } from './Field'
import { COUNTRIES, US_STATES } from '../data/geo'
import { attachAddressAutocomplete, type PickedAddress } from '../thirdparty/maps'
import type { BillingAddress } from '@shared/api/contract'

export type AddressValue = {
  address1: string
  address2: string
  city: string
  zip: string
  state: string
  country: string
}

export const EMPTY_ADDRESS: AddressValue = {
  address1: '',
  address2: '',
  city: '',
  zip: '',
  state: '',
  country: 'US',
}

/** The customer's saved billing address as the form's fields (the empty form when none is saved). */
export function addressFromBilling(saved: BillingAddress | null | undefined): AddressValue {
  if (!saved) return EMPTY_ADDRESS
  return {
    address1: saved.line1,
    address2: saved.line2 ?? '',
    city: saved.city,
    zip: saved.postal_code,
    state: saved.state,
    country: saved.country || 'US',
  }
}

/** Spec: address1, city, zip and state are required; address 2 is optional. */
export const missingAddressFields = (value: AddressValue) =>
  (['address1', 'city', 'zip', 'state'] as const).filter((field) => !value[field].trim())

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: c.name }))
const STATE_OPTIONS = US_STATES.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))

/**
 * Address 1 (with the maps autocomplete when configured), Address 2 (Optional), City, Zip Code,
 * Country (default US) and State: a select for the US, free text State / Province elsewhere.
 */
export function AddressFields({
  value,
  onChange,
  invalid = [],
  labels = {},
}: {
  value: AddressValue
  onChange: (value: AddressValue) => void
  invalid?: readonly string[]
  labels?: Partial<Record<keyof AddressValue, string>>
}) {
  const address1Ref = useRef<HTMLInputElement>(null)
  const set = (field: keyof AddressValue) => (next: string) => onChange({ ...value, [field]: next })

  // A picked suggestion fills in the address as it is when it is picked.
  const picked = useEffectEvent((place: PickedAddress) => {
    const knownCountry = COUNTRIES.some((c) => c.code === place.country)
    onChange({
      ...value,
      address1: place.address1 || value.address1,
      city: place.city || value.city,
      zip: place.zip || value.zip,
      state: place.state || value.state,
      country: knownCountry ? place.country : value.country,
    })
  })

  // Attached once per mounted input.
  useEffect(() => {
    if (!address1Ref.current) return
    return attachAddressAutocomplete(address1Ref.current, (place) => picked(place))
  }, [])

  const required = (field: keyof AddressValue) => (invalid.includes(field) ? 'Required' : null)

  return (
    <div className="stack">
      <Field
        label={labels.address1 ?? 'Address'}
        autoComplete="address-line1"
        inputRef={address1Ref}
        value={value.address1}
        onValue={set('address1')}
        error={required('address1')}
        maxLength={120}
        required
      />
      <Field
        label={labels.address2 ?? 'Address 2 (Optional)'}
        autoComplete="address-line2"
        value={value.address2}
        onValue={set('address2')}
        maxLength={120}
      />
      <div className="grid-2">
        <Field
          label="City"
          autoComplete="address-level2"
          value={value.city}
          onValue={set('city')}
          error={required('city')}
          maxLength={80}
          required
        />
        <Field
          label={labels.zip ?? 'Zip Code'}
          autoComplete="postal-code"
          value={value.zip}
          onValue={set('zip')}
          error={required('zip')}
          maxLength={16}
          required
        />
      </div>
      <div className="grid-2">
        <SelectField
          label="Country"
          autoComplete="country"
          options={COUNTRY_OPTIONS}
          value={value.country}
          onValue={(country) =>
            onChange({
              ...value,
              country,
              state: country === value.country ? value.state : '',
            })
          }
        />
        {value.country === 'US' ? (
          <SelectField
            label="State"
            autoComplete="address-level1"
            options={STATE_OPTIONS}
            placeholder="Select a state"
            value={value.state}
            onValue={set('state')}
            error={required('state')}
            required
          />
        ) : (
          <Field
            label="State / Province"
            placeholder="Enter State / Province"
            autoComplete="address-level1"
            value={value.state}
            onValue={set('state')}
            error={required('state')}
            maxLength={64}
            required
          />
        )}
      </div>
    </div>
  )
}
