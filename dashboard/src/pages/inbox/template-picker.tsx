import type { ReplyTemplate } from './templates.js'
import { t } from '../../i18n/index.js'

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
