import type { components } from '../../api/schema.js'
import type { Conversation } from './inbox-shared.js'
import { t } from '../../i18n/index.js'

export type ReplyTemplate = components['schemas']['ReplyTemplate']

/** The text after a leading `/` while it is still one word (the picker's query), else null. */
export function pickerQuery(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text)
  return m ? m[1]!.toLowerCase() : null
}

/** Templates whose shortcut starts with the query come first, then those whose name contains it; each by name. */
export function matchTemplates(templates: ReplyTemplate[], query: string): ReplyTemplate[] {
  const q = query.toLowerCase()
  const sorted = [...templates].sort((a, b) => a.name.localeCompare(b.name))
  const byShortcut = sorted.filter((t) => t.shortcut?.toLowerCase().startsWith(q))
  const byName = sorted.filter((t) => !byShortcut.includes(t) && t.name.toLowerCase().includes(q))
  return [...byShortcut, ...byName].slice(0, 8)
}

/**
 * A template's content with its placeholders filled from the conversation; a placeholder the contact
 * has no value for stays as written, so the agent sees what still needs filling in.
 */
export function fillTemplate(content: string, conv: Conversation): string {
  const values: Record<string, string | null | undefined> = {
    'contact.name': conv.contact.name,
    'contact.email': conv.contact.email,
    'contact.phone': conv.contact.phone,
    'conversation.subject': conv.subject,
  }
  return content.replace(/\{\{\s*([a-z_.]+)\s*\}\}/g, (all, name: string) => values[name] ?? all)
}

export const PICKER_ID = 'template-picker'
export const optionId = (i: number) => `template-option-${i}`

/**
 * The list under the reply box while it holds `/query`: a listbox the reply box drives (Arrow keys,
 * Enter, Escape; see ReplyBox), the highlighted option named by aria-activedescendant. A click picks too.
 */
export function TemplatePicker({ matches, active, onPick, loading }: { matches: ReplyTemplate[]; active: number; onPick: (t: ReplyTemplate) => void; loading: boolean }) {
  return (
    <div class="template-picker">
      {matches.length === 0 ? (
        <p class="hint" role="status">
          {loading ? t('inbox.tpl.loading') : t('inbox.tpl.none')}
        </p>
      ) : (
        <ul id={PICKER_ID} role="listbox" aria-label={t('inbox.tpl.list')}>
          {matches.map((t, i) => (
            <li
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              // mousedown, not click: the reply box keeps the focus.
              onMouseDown={(e) => {
                e.preventDefault()
                onPick(t)
              }}
            >
              <strong>{t.name}</strong>
              {t.shortcut && <code>/{t.shortcut}</code>}
              <br />
              <small>{t.content.length > 90 ? `${t.content.slice(0, 90)}…` : t.content}</small>
            </li>
          ))}
        </ul>
      )}
      <p class="hint">{t('inbox.tpl.keys')}</p>
    </div>
  )
}
