import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, Notice, Page, ProblemView } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { Excerpt } from './common.js'
import { t } from '../../i18n/index.js'

type SearchAnswer = components['schemas']['KnowledgeSearch']

/** /dashboard/knowledge/search: ask the knowledge; each result cites its document, with its score and source. */
export default function Search() {
  const { api } = useWorkspace()
  const bases = useResource((a) => ok(a.client.GET('/knowledge/bases', { params: { query: { limit: 100 } } })))
  const [query, setQuery] = useState('')
  const [baseId, setBaseId] = useState('')
  const [topK, setTopK] = useState('5')
  const [withAnswer, setWithAnswer] = useState(true)
  const [result, setResult] = useState<SearchAnswer>()
  const search = useAction(async () => {
    const r = await ok(
      api.client.POST('/knowledge/search', {
        body: { query, top_k: Number(topK) || 5, answer: withAnswer, ...(baseId ? { knowledge_base_ids: [baseId] } : {}) },
      }),
    )
    setResult(r)
  })
  const baseName = (id: string) => bases.data?.data.find((b) => b.id === id)?.name ?? id
  return (
    <Page title={t('knowledge.search.searchKnowledge')}>
      <form
        role="search"
        class="panel"
        onSubmit={(e) => {
          e.preventDefault()
          void search.run()
        }}
      >
        <Field label={t('knowledge.gaps.question')}>{(id) => <input id={id} type="search" required value={query} onInput={(e) => setQuery(e.currentTarget.value)} />}</Field>
        <div class="filters">
          <Field label={t('knowledge.baseDetail.knowledgeBase')}>
            {(id) => (
              <select id={id} value={baseId} onChange={(e) => setBaseId(e.currentTarget.value)}>
                <option value="">{t('knowledge.search.allBases')}</option>
                {bases.data?.data.map((b) => (
                  <option value={b.id}>{b.name}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('knowledge.search.results')}>{(id) => <input id={id} type="number" min={1} max={50} value={topK} onInput={(e) => setTopK(e.currentTarget.value)} />}</Field>
          <div class="field">
            <label>
              <input type="checkbox" checked={withAnswer} onChange={(e) => setWithAnswer(e.currentTarget.checked)} /> {t('knowledge.search.writeAShortAnswer')}
            </label>
          </div>
        </div>
        {bases.error && <ProblemView problem={bases.error} onRetry={bases.reload} />}
        {search.error && <ProblemView problem={search.error} />}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={search.pending || !query.trim()}>
            {search.pending ? t('knowledge.search.searching') : t('knowledge.baseDetail.search')}
          </button>
        </div>
      </form>
      {result && (
        <section aria-labelledby="results-title">
          <h2 id="results-title">{t('knowledge.search.resultsForQuery', { query: result.query })}</h2>
          <Notice tone="info">
            {t('knowledge.search.resultCount', { count: result.results.length, ranking: result.ranking })}
            {result.gap ? '. Nothing answered this well: it was recorded as a knowledge gap.' : '.'}
          </Notice>
          {result.answer && (
            <section class="panel" aria-labelledby="answer-title">
              <h3 id="answer-title">
                {t('knowledge.search.answer')} {result.answer.grounded ? <Badge tone="good">{t('knowledge.search.grounded')}</Badge> : <Badge tone="warn">{t('knowledge.search.notGrounded')}</Badge>}
              </h3>
              <p>{result.answer.content}</p>
            </section>
          )}
          {result.results.length === 0 ? (
            <Empty title={t('knowledge.search.noPassageMatches')}>{t('knowledge.search.tryOtherWordsOrUpload')}</Empty>
          ) : (
            <ol class="search-results">
              {result.results.map((r, i) => (
                <li class="panel" key={r.citation.chunk_id}>
                  <h3>
                    [{i + 1}] {r.citation.title}
                  </h3>
                  <p>
                    <Badge tone={r.score >= 0.5 ? 'good' : 'warn'}>
                      {t('knowledge.search.score')} {r.score.toFixed(2)}
                    </Badge>{' '}
                    · {baseName(r.citation.knowledge_base_id)}
                    {r.citation.heading_path.length > 0 && <> · {r.citation.heading_path.join(' › ')}</>}
                    {r.citation.page !== null && <> {t('knowledge.search.pagePage', { page: r.citation.page })}</>}
                  </p>
                  <blockquote>
                    <Excerpt text={r.excerpt} />
                  </blockquote>
                  <p>
                    {r.citation.source_url ? (
                      <a href={r.citation.source_url} target="_blank" rel="noopener noreferrer">
                        {t('knowledge.search.sourceSourceurl', { sourceUrl: r.citation.source_url })}
                      </a>
                    ) : (
                      <a href={`/dashboard/knowledge/bases/${r.citation.knowledge_base_id}`}>
                        {t('knowledge.search.sourceTitleInKnowledgebaseid', { title: r.citation.title, knowledgeBaseId: baseName(r.citation.knowledge_base_id) })}
                      </a>
                    )}{' '}
                    <span class="hint">
                      {t('knowledge.search.charactersStartEndOf', { start: r.citation.start, end: r.citation.end })} <code>{r.citation.document_id}</code>)
                    </span>
                  </p>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </Page>
  )
}
