import { chosenLocale, setLocale, t, type Locale } from '../../i18n/index.js'
import { Field } from '../../ui/components.js'

/**
 * The dashboard's language for this browser (localStorage, not the workspace: colleagues may read
 * different ones). Choosing re-renders the app in it; "the browser's" follows navigator.languages again.
 */
export function LanguageChoice() {
  return (
    <section class="panel" aria-labelledby="language-title">
      <h2 id="language-title">{t('settings.language.title')}</h2>
      <Field label={t('settings.language.label')} hint={t('settings.language.hint')}>
        {(id, d) => (
          <select id={id} aria-describedby={d} data-testid="language-select" value={chosenLocale() ?? ''} onChange={(e) => setLocale(((e.target as HTMLSelectElement).value || null) as Locale | null)}>
            <option value="">{t('settings.language.browser')}</option>
            <option value="en" lang="en">
              English
            </option>
            <option value="de" lang="de">
              Deutsch
            </option>
          </select>
        )}
      </Field>
    </section>
  )
}
