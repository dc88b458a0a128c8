import { getConfig } from '../config'
import { loadScript } from './loadScript'

/** The address parts an autocomplete pick fills (spec section 3, billing address payload). */
export type PickedAddress = {
  address1: string
  city: string
  state: string
  zip: string
  country: string
  lat?: number
  lng?: number
}

type Component = { long_name: string; short_name: string; types: string[] }
type Place = {
  address_components?: Component[]
  geometry?: { location?: { lat: () => number; lng: () => number } }
}
type Autocomplete = {
  addListener: (event: string, handler: () => void) => { remove: () => void }
  getPlace: () => Place
}
type MapsWindow = Window & {
  google?: {
    maps?: {
      places?: { Autocomplete: new (input: HTMLInputElement, options: object) => Autocomplete }
      event?: { clearInstanceListeners: (instance: unknown) => void }
    }
  }
}

/** Our country codes differ from ISO in one place (UK). */
const toOurCountry = (iso: string) => (iso === 'GB' ? 'UK' : iso)

export function placeToAddress(place: Place): PickedAddress | null {
  const parts = place.address_components
  if (!parts?.length) return null
  const get = (type: string, short = false) => {
    const part = parts.find((component) => component.types.includes(type))
    return part ? (short ? part.short_name : part.long_name) : ''
  }
  const street = [get('street_number'), get('route')].filter(Boolean).join(' ')
  const location = place.geometry?.location
  return {
    address1: street,
    city: get('locality') || get('postal_town') || get('administrative_area_level_2'),
    state: get('administrative_area_level_1', true),
    zip: get('postal_code'),
    country: toOurCountry(get('country', true)),
    lat: location?.lat(),
    lng: location?.lng(),
  }
}

/**
 * Google Places autocomplete on an address input, restricted to geocode results, when a maps key
 * is configured; without one nothing loads and the field stays a plain input. Returns a cleanup.
 */
export function attachAddressAutocomplete(
  input: HTMLInputElement,
  onPick: (address: PickedAddress) => void
): () => void {
  const key = getConfig().integrations.mapsApiKey
  if (!key) return () => {}
  let cancelled = false
  let listener: { remove: () => void } | null = null
  const url = `https://maps.googleapis.com/maps/api/js?key=${encodeURIComponent(key)}&libraries=places&loading=async&callback=Function.prototype`
  loadScript(url)
    .then(async () => {
      const maps = (window as MapsWindow).google?.maps
      // With loading=async the places library can arrive just after the script's onload.
      for (let tries = 0; !maps?.places && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const places = (window as MapsWindow).google?.maps?.places
      if (cancelled || !places) return
      const autocomplete = new places.Autocomplete(input, {
        types: ['geocode'],
        fields: ['address_components', 'geometry'],
      })
      listener = autocomplete.addListener('place_changed', () => {
        const address = placeToAddress(autocomplete.getPlace())
        if (address) onPick(address)
      })
    })
    .catch(() => {
      // The field keeps working as a plain input.
    })
  return () => {
    cancelled = true
    listener?.remove()
  }
}
