import { useId } from 'react'
import type { ProductRetailer } from '@shared/api/contract'
import { formatCents } from '@shared/pricing'
import { ladderWords, RETAILER_CHOICE_RULE } from '@shared/slot_choices'
import { Field, SelectField } from './Field'
import {
  backupOptions,
  MAX_BACKUP_SIZES,
  type ChoiceErrors,
  type ChoiceField,
  type SlotChoicesDraft,
} from '../lib/slotChoices'

/**
 * A slot's choices, the same controls wherever they are set (the product page's "More chances",
 * the orders page's "Change sizes and cap"): backup sizes in order (not for a one-size product),
 * the retailers accepted (only when the release drops at more than one) and a price cap.
 */
export function SlotChoiceFields({
  sizes,
  size,
  ladder,
  retailers,
  value,
  errors,
  onChange,
}: {
  /** The product's sizes. */
  sizes: readonly string[]
  /** The buyer's size, the ladder's first. */
  size: string
  /** False for a one-size product. */
  ladder: boolean
  retailers: readonly ProductRetailer[]
  value: SlotChoicesDraft
  errors: ChoiceErrors
  /** The new choices and the field changed (its error is out of date). */
  onChange: (next: SlotChoicesDraft, field: ChoiceField) => void
}) {
  const id = useId()
  const options = backupOptions(sizes, size, value.backups)
  const full = value.backups.length >= MAX_BACKUP_SIZES
  const choosesRetailers = retailers.length > 1
  // A refusal of a field not shown here (or of none) is still told.
  const unshown = [
    errors.form,
    ladder ? null : errors.sizes,
    choosesRetailers ? null : errors.retailers,
  ].filter(Boolean)

  function toggleRetailer(key: string, checked: boolean) {
    const next = retailers
      .map((entry) => entry.retailer)
      .filter((other) => (other === key ? checked : value.retailers.includes(other)))
    onChange({ ...value, retailers: next }, 'retailers')
  }

  return (
    <div className="slot-choices">
      {unshown.length ? (
        <p className="form-error" role="alert">
          {unshown.join(' ')}
        </p>
      ) : null}
      {ladder ? (
        <fieldset
          className="slot-choices__group"
          aria-describedby={errors.sizes ? `${id}-sizes-error` : `${id}-sizes-hint`}
        >
          <legend>Backup sizes, in order</legend>
          <p className="field__hint" id={`${id}-sizes-hint`}>
            If your size is gone, the slot tries the next, up to {MAX_BACKUP_SIZES} backups.
            {size ? ` In order: ${ladderWords([size, ...value.backups])}.` : null}
          </p>
          {value.backups.length ? (
            <ol className="slot-choices__ladder">
              {value.backups.map((backup) => (
                <li key={backup}>
                  <span>{backup}</span>
                  <button
                    type="button"
                    className="link-btn"
                    onClick={() => {
                      onChange(
                        { ...value, backups: value.backups.filter((other) => other !== backup) },
                        'sizes'
                      )
                      // The button goes away: focus stays in the group, on the size picker.
                      document.getElementById(`${id}-add`)?.focus()
                    }}
                  >
                    {/* Named by its text, not aria-label: getByLabel('Size') keeps one match. */}
                    Remove<span className="sr-only"> size {backup}</span>
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
          <SelectField
            id={`${id}-add`}
            label="Add a backup size"
            placeholder={full ? `${MAX_BACKUP_SIZES} backup sizes chosen` : 'Choose a size'}
            options={options.map((option) => ({ value: option, label: option }))}
            value=""
            disabled={full || options.length === 0}
            onValue={(picked) => {
              if (picked) onChange({ ...value, backups: [...value.backups, picked] }, 'sizes')
            }}
          />
          {errors.sizes ? (
            <p className="field__error" id={`${id}-sizes-error`} role="alert">
              {errors.sizes}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {choosesRetailers ? (
        <fieldset
          className="slot-choices__group"
          aria-describedby={errors.retailers ? `${id}-retailers-error` : `${id}-retailers-hint`}
        >
          <legend>Retailers</legend>
          <p className="field__hint" id={`${id}-retailers-hint`}>
            {RETAILER_CHOICE_RULE}
          </p>
          {retailers.map((entry) => {
            const checked = value.retailers.includes(entry.retailer)
            const boxId = `${id}-retailer-${entry.retailer}`
            return (
              <div className="slot-choices__retailer" key={entry.retailer}>
                <input
                  type="checkbox"
                  id={boxId}
                  checked={checked}
                  // The last one ticked stays: a slot is tried at one retailer at least.
                  disabled={checked && value.retailers.length === 1}
                  aria-describedby={entry.priceCents !== null ? `${boxId}-price` : undefined}
                  onChange={(event) => toggleRetailer(entry.retailer, event.target.checked)}
                />
                <label htmlFor={boxId}>{entry.name}</label>
                {entry.priceCents !== null ? (
                  <span className="muted" id={`${boxId}-price`}>
                    {formatCents(entry.priceCents)}
                  </span>
                ) : null}
              </div>
            )
          })}
          {errors.retailers ? (
            <p className="field__error" id={`${id}-retailers-error`} role="alert">
              {errors.retailers}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      <fieldset className="slot-choices__group">
        <legend>Price cap (optional)</legend>
        <Field
          label="Most you will pay the retailer, with shipping"
          hint="In dollars, for the item. Leave it empty for no cap."
          inputMode="decimal"
          autoComplete="off"
          placeholder="250.00"
          maxLength={12}
          value={value.cap}
          error={errors.maxItemPriceCents}
          onValue={(cap) => onChange({ ...value, cap }, 'maxItemPriceCents')}
        />
      </fieldset>
    </div>
  )
}
