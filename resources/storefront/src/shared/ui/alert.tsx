import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'

type AlertState = { message: string | null; show: (message: string) => void; clear: () => void }

const AlertContext = createContext<AlertState>({ message: null, show: () => {}, clear: () => {} })

/** The global danger alert of the spec (login/register failures); cleared on route change. */
export function AlertProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<string | null>(null)
  const clear = useCallback(() => setMessage(null), [])
  const value = useMemo(() => ({ message, show: setMessage, clear }), [message, clear])
  return <AlertContext.Provider value={value}>{children}</AlertContext.Provider>
}

export const useAlert = () => useContext(AlertContext)

export function GlobalAlert() {
  const { message, clear } = useAlert()
  if (!message) return null
  return (
    <div className="global-alert" role="alert">
      <div className="container global-alert__inner">
        <span>{message}</span>
        <button type="button" className="icon-btn" aria-label="Dismiss" onClick={clear}>
          ×
        </button>
      </div>
    </div>
  )
}
