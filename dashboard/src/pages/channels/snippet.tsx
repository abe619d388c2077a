import { CopyButton } from '../../ui/components.js'
import { t } from '../../i18n/index.js'
import type { Channel } from './channels.shared.js'

/** A web chat channel's ready-to-paste `<script>` tag (as the API writes it: `web_chat.snippet`), with copy. */
export function Snippet({ c }: { c: Channel }) {
  if (!c.web_chat) return null
  return (
    <section class="snippet-box" aria-labelledby={`snippet-${c.id}`}>
      <h3 id={`snippet-${c.id}`}>{t('channels.detail.snippet')}</h3>
      <p class="hint">{t('channels.detail.snippetHint')}</p>
      <pre class="code" tabIndex={0} aria-label={t('channels.detail.snippet')}>
        <code data-testid="widget-snippet">{c.web_chat.snippet}</code>
      </pre>
      <CopyButton text={c.web_chat.snippet} label={t('channels.detail.copySnippet')} />
      {c.web_chat.allowed_origins.length === 0 && <p class="hint">{t('channels.detail.noOriginsYet')}</p>}
    </section>
  )
}

/** A read-only URL (a webhook to give a provider) with its copy button. */
export function CopyUrl({ label, url }: { label: string; url: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd class="copy-url">
        <code>{url}</code> <CopyButton text={url} label={t('channels.detail.copy')} />
      </dd>
    </>
  )
}
