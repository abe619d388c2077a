import { useEffect, useRef } from 'preact/hooks'

/**
 * Keyboard shortcuts for a page: `key` is the character typed (`j`, `?`, `/`) or `mod+Enter` (Ctrl on
 * Linux and Windows, Cmd on a Mac). Plain keys do nothing while the focus is in a text field, a select or
 * an open dialog, so typing "e" in the reply box never resolves the conversation; `mod+` keys work
 * everywhere, which is the point of Ctrl+Enter to send.
 */
export interface Shortcut {
  key: string
  /** What it does, for the help overlay. */
  label: string
  run: (e: KeyboardEvent) => void
}

/** Whether the event's target takes typed text (where a letter must stay a letter). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el || !el.tagName) return false
  if (el.isContentEditable) return true
  const tag = el.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (el as HTMLInputElement).type
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type)
}

/** The name of the key as `Shortcut.key` writes it. */
export function keyOf(e: KeyboardEvent): string {
  return (e.ctrlKey || e.metaKey) && !e.altKey ? `mod+${e.key}` : e.key
}

export function useShortcuts(shortcuts: Shortcut[], enabled = true): void {
  const current = useRef(shortcuts)
  current.current = shortcuts
  useEffect(() => {
    if (!enabled) return
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return
      const key = keyOf(e)
      const plain = !key.startsWith('mod+')
      if (plain && (e.altKey || e.ctrlKey || e.metaKey)) return
      if (plain && isTyping(e.target)) return
      // A modal dialog (the help overlay, a confirmation) owns the keyboard while it is open.
      if (plain && document.querySelector('dialog[open]')) return
      const s = current.current.find((x) => x.key === key)
      if (!s) return
      e.preventDefault()
      s.run(e)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [enabled])
}

/** How a shortcut's key is shown: `mod+Enter` as Ctrl+Enter (⌘+Enter on a Mac). */
export function keyLabel(key: string): string {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
  return key.startsWith('mod+') ? `${mac ? '⌘' : 'Ctrl'}+${key.slice(4)}` : key
}
