import { Dialog } from '../../ui/components.js'
import { keyLabel } from '../../ui/shortcuts.js'

/** Every inbox shortcut, as the help overlay (and docs/dashboard.md) lists them. */
export const INBOX_SHORTCUTS: { key: string; label: string }[] = [
  { key: 'j', label: 'Next conversation' },
  { key: 'k', label: 'Previous conversation' },
  { key: 'r', label: 'Reply (move to the reply box)' },
  { key: 'e', label: 'Resolve the open conversation' },
  { key: 'a', label: 'Assign the open conversation to me' },
  { key: 's', label: 'Snooze the open conversation' },
  { key: '/', label: 'Search' },
  { key: '?', label: 'Show these shortcuts' },
  { key: 'mod+Enter', label: 'Send the reply (also while typing)' },
  { key: '/ in the reply box', label: 'Pick a reply template (type its shortcut to filter)' },
  { key: 'Esc', label: 'Close a dialog or the template list' },
]

/** The "?" overlay: a modal dialog listing the shortcuts (letters do nothing while typing in a field). */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table class="shortcuts">
        <caption class="visually-hidden">Keyboard shortcuts of the inbox</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {INBOX_SHORTCUTS.map((s) => (
            <tr>
              <td>
                <kbd>{keyLabel(s.key)}</kbd>
              </td>
              <td>{s.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">Letter keys do nothing while you type in a field; Ctrl+Enter (⌘+Enter on a Mac) sends from the reply box.</p>
    </Dialog>
  )
}
