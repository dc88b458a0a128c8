import { useEffect, useId, useRef, type ReactNode } from 'react'
import { IconClose } from './icons'

type ModalProps = {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
  subtitle?: ReactNode
}

/**
 * A modal on the native <dialog>: focus moves in and is kept inside, Escape closes it, focus
 * returns to the opener, and a click outside the panel (on the backdrop) closes it.
 */
export function Modal({ open, title, subtitle, onClose, children, footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        // The dialog element itself only receives clicks on its backdrop.
        if (event.target === ref.current) onClose()
      }}
    >
      {open ? (
        <div className="modal__panel">
          <header className="modal__header">
            <div>
              <h2 id={titleId}>{title}</h2>
              {subtitle ? <p className="modal__subtitle">{subtitle}</p> : null}
            </div>
            <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
              <IconClose />
            </button>
          </header>
          <div className="modal__body">{children}</div>
          {footer ? <footer className="modal__footer">{footer}</footer> : null}
        </div>
      ) : null}
    </dialog>
  )
}
