import { Dialog } from '../../ui/components.js'
import { keyLabel } from '../../ui/shortcuts.js'
import { t, type MessageKey } from '../../i18n/index.js'

/** Every inbox shortcut, as the help overlay (and docs/dashboard.md) lists them. */
export const INBOX_SHORTCUTS: { key: string | MessageKey; label: MessageKey }[] = [
  { key: 'j', label: 'inbox.keys.next' },
  { key: 'k', label: 'inbox.keys.previous' },
  { key: 'r', label: 'inbox.keys.reply' },
  { key: 'e', label: 'inbox.keys.resolve' },
  { key: 'a', label: 'inbox.keys.assign' },
  { key: 's', label: 'inbox.keys.snooze' },
  { key: '/', label: 'inbox.keys.search' },
  { key: '?', label: 'inbox.keys.help' },
  { key: 'mod+Enter', label: 'inbox.keys.send' },
  { key: 'inbox.keys.templateKey', label: 'inbox.keys.template' },
  { key: 'Esc', label: 'inbox.keys.close' },
]

/** The "?" overlay: a modal dialog listing the shortcuts (letters do nothing while typing in a field). */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title={t('inbox.keys.title')} onClose={onClose}>
      <table class="shortcuts">
        <caption class="visually-hidden">{t('inbox.keys.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('inbox.keys.key')}</th>
            <th scope="col">{t('inbox.keys.does')}</th>
          </tr>
        </thead>
        <tbody>
          {INBOX_SHORTCUTS.map((s) => (
            <tr>
              <td>
                <kbd>{s.key.startsWith('inbox.') ? t(s.key as MessageKey) : keyLabel(s.key)}</kbd>
              </td>
              <td>{t(s.label)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">{t('inbox.keys.note')}</p>
    </Dialog>
  )
}
