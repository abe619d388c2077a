import { CopyButton, Empty, Notice, Table } from '../../ui/components.js'
import { label, type PiiEntity, type PiiRedaction } from './compliance.shared.js'
import { t } from '../../i18n/index.js'

/** The redacted text with each replacement marked, cut at the API's offsets in the redacted text. */
function Marked({ text, entities }: { text: string; entities: PiiEntity[] }) {
  const parts: (string | { mark: string; type: string })[] = []
  let at = 0
  for (const e of [...entities].sort((a, b) => a.redacted_start - b.redacted_start)) {
    if (e.redacted_start > at) parts.push(text.slice(at, e.redacted_start))
    // `remove` leaves nothing to mark: the cut is still there, just empty.
    if (e.redacted_end > e.redacted_start) parts.push({ mark: text.slice(e.redacted_start, e.redacted_end), type: e.type })
    at = Math.max(at, e.redacted_end)
  }
  if (at < text.length) parts.push(text.slice(at))
  return (
    <div class="pii-text" data-testid="pii-redacted">
      {parts.map((p) => (typeof p === 'string' ? p : <mark title={label(p.type)}>{p.mark}</mark>))}
    </div>
  )
}

type Item = PiiRedaction['items'][number]

function ItemView({ item, n }: { item: Item; n: number }) {
  const name = item.message_id ? `message ${item.message_id}` : n > 1 ? `item ${n}` : 'the text'
  return (
    <section class="panel" aria-label={t('compliance.piiResult.redactionOfName', { name })}>
      {item.message_id && (
        <h3 class="section-title">
          {t('compliance.piiResult.message')} <code>{item.message_id}</code>
        </h3>
      )}
      <div class="pii-head">
        <p class="field-label">{t('compliance.piiResult.redactedText')}</p>
        <CopyButton text={item.redacted} label={t('compliance.piiResult.copyRedactedText')} />
      </div>
      <Marked text={item.redacted} entities={item.entities} />
      {item.entities.length === 0 ? (
        <Empty title={t('compliance.piiResult.noPersonalDataFound')} />
      ) : (
        <Table<PiiEntity>
          caption={t('compliance.piiResult.entitiesFoundInName', { name })}
          rows={item.entities}
          rowKey={(e) => `${e.start}-${e.end}`}
          columns={[
            { label: t('compliance.dsarList.type'), render: (e) => <code>{e.type}</code> },
            { label: t('compliance.piiResult.found'), render: (e) => <code class="wrap">{item.original.slice(e.start, e.end)}</code> },
            { label: t('compliance.piiResult.offsets'), class: 'num', render: (e) => `${e.start}–${e.end}` },
            {
              label: t('compliance.piiResult.replacement'),
              render: (e) => (e.replacement ? <code class="wrap">{e.replacement}</code> : <span class="muted">{t('compliance.piiResult.removed')}</span>),
            },
            { label: t('compliance.piiResult.offsetsAfter'), class: 'num', render: (e) => `${e.redacted_start}–${e.redacted_end}` },
          ]}
        />
      )}
    </section>
  )
}

/** The API's answer: whether it was applied, and each text (or stored message) with its entities. */
export function PiiResult({ result }: { result: PiiRedaction }) {
  return (
    <section aria-labelledby="pii-result" class="pii-result">
      <h2 id="pii-result" class="section-title">
        {t('compliance.piiResult.result')}
      </h2>
      {result.applied ? (
        <Notice>
          {t('compliance.piiResult.applied', {
            entities: t('compliance.piiResult.entities', { count: result.entity_count }),
            messages: t('compliance.piiResult.messages', { count: result.items.length }),
          })}
        </Notice>
      ) : (
        <Notice tone="info">{t('compliance.piiResult.preview', { mode: result.mode, entities: t('compliance.piiResult.entities', { count: result.entity_count }) })}</Notice>
      )}
      {result.items.length === 0 && <Empty title={t('compliance.piiResult.noMessagesWithText')} />}
      {result.items.map((item, i) => (
        <ItemView key={item.message_id ?? i} item={item} n={result.items.length > 1 ? i + 1 : 1} />
      ))}
    </section>
  )
}
