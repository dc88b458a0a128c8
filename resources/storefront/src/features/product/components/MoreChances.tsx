import { useId, type ComponentProps } from 'react'
import { IconChevron } from '../../../shared/ui/icons'
import { SlotChoiceFields } from '../../../shared/ui/SlotChoiceFields'

/**
 * The checkout form's "More chances", closed until asked for: backup sizes, the retailers
 * accepted and a price cap, all on the one slot and its one fee.
 */
export function MoreChances({
  open,
  onToggle,
  ...fields
}: ComponentProps<typeof SlotChoiceFields> & { open: boolean; onToggle: () => void }) {
  const bodyId = useId()
  return (
    <div className="promo more-chances">
      <button
        type="button"
        className="promo__toggle"
        aria-expanded={open}
        aria-controls={open ? bodyId : undefined}
        onClick={onToggle}
      >
        More chances
        <IconChevron className={open ? 'rotate' : undefined} />
      </button>
      {/* Rendered only when open: its labels ("Add a backup size") stay out of the closed form. */}
      {open ? (
        <div id={bodyId} className="more-chances__body">
          <p className="fine-print">
            Still one slot and one fee: if your size or a retailer is gone on release day, the slot
            tries the next you chose.
          </p>
          <SlotChoiceFields {...fields} />
        </div>
      ) : null}
    </div>
  )
}
