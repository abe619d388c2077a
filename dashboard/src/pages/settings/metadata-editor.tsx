import { t } from '../../i18n/index.js'
export interface MetaRow {
  key: string
  value: string
}

export const rowsOf = (m: Record<string, string>): MetaRow[] => Object.entries(m).map(([key, value]) => ({ key, value }))

/** Rows without a key are dropped; the API checks the limits (50 pairs, keys ≤ 40, values ≤ 500). */
export const metadataOf = (rows: MetaRow[]): Record<string, string> => Object.fromEntries(rows.filter((r) => r.key.trim() !== '').map((r) => [r.key.trim(), r.value]))

/** Key/value pairs the API stores as given and returns as given (PATCH replaces them all). */
export function MetadataEditor({ rows, onChange }: { rows: MetaRow[]; onChange: (rows: MetaRow[]) => void }) {
  const edit = (i: number, k: keyof MetaRow) => (e: Event) => onChange(rows.map((r, j) => (j === i ? { ...r, [k]: (e.target as HTMLInputElement).value } : r)))
  return (
    <fieldset class="metadata">
      <legend>{t('settings.metadataEditor.metadata')}</legend>
      {rows.length === 0 && <p class="hint">{t('settings.metadataEditor.noMetadataUpTo50')}</p>}
      <ul class="meta-rows">
        {rows.map((r, i) => (
          <li class="meta-row">
            <label class="visually-hidden" for={`meta-k-${i}`}>
              {t('settings.metadataEditor.metadataKey')} {i + 1}
            </label>
            <input id={`meta-k-${i}`} placeholder={t('settings.metadataEditor.keyPlaceholder')} maxLength={40} value={r.key} onInput={edit(i, 'key')} />
            <label class="visually-hidden" for={`meta-v-${i}`}>
              {t('settings.metadataEditor.metadataValue')} {i + 1}
            </label>
            <input id={`meta-v-${i}`} placeholder={t('settings.metadataEditor.valuePlaceholder')} maxLength={500} value={r.value} onInput={edit(i, 'value')} />
            <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              {t('settings.memberDialogs.remove')}
              <span class="visually-hidden">
                {' '}
                {t('settings.metadataEditor.metadataPair')} {i + 1}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" disabled={rows.length >= 50} onClick={() => onChange([...rows, { key: '', value: '' }])}>
        {t('settings.metadataEditor.addPair')}
      </button>
    </fieldset>
  )
}
