const scripts = new Map<string, Promise<void>>()

/** Loads a third-party script once, async, never blocking the page. */
export function loadScript(src: string, attributes: Record<string, string> = {}): Promise<void> {
  let promise = scripts.get(src)
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.async = true
      for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value)
      script.onload = () => resolve()
      script.onerror = () => {
        scripts.delete(src)
        reject(new Error(`Could not load ${src}`))
      }
      document.head.appendChild(script)
    })
    scripts.set(src, promise)
  }
  return promise
}
