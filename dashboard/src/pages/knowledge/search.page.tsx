import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, Notice, Page, ProblemView } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { Excerpt } from './common.js'

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
    <Page title="Search knowledge">
      <form
        role="search"
        class="panel"
        onSubmit={(e) => {
          e.preventDefault()
          void search.run()
        }}
      >
        <Field label="Question">{(id) => <input id={id} type="search" required value={query} onInput={(e) => setQuery(e.currentTarget.value)} />}</Field>
        <div class="filters">
          <Field label="Knowledge base">
            {(id) => (
              <select id={id} value={baseId} onChange={(e) => setBaseId(e.currentTarget.value)}>
                <option value="">All bases</option>
                {bases.data?.data.map((b) => (
                  <option value={b.id}>{b.name}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Results">{(id) => <input id={id} type="number" min={1} max={50} value={topK} onInput={(e) => setTopK(e.currentTarget.value)} />}</Field>
          <div class="field">
            <label>
              <input type="checkbox" checked={withAnswer} onChange={(e) => setWithAnswer(e.currentTarget.checked)} /> Write a short answer
            </label>
          </div>
        </div>
        {bases.error && <ProblemView problem={bases.error} onRetry={bases.reload} />}
        {search.error && <ProblemView problem={search.error} />}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={search.pending || !query.trim()}>
            {search.pending ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      {result && (
        <section aria-labelledby="results-title">
          <h2 id="results-title">
            Results for “{result.query}”
          </h2>
          <Notice tone="info">
            {result.results.length} result{result.results.length === 1 ? '' : 's'} ({result.ranking} ranking)
            {result.gap ? '. Nothing answered this well: it was recorded as a knowledge gap.' : '.'}
          </Notice>
          {result.answer && (
            <section class="panel" aria-labelledby="answer-title">
              <h3 id="answer-title">Answer {result.answer.grounded ? <Badge tone="good">grounded</Badge> : <Badge tone="warn">not grounded</Badge>}</h3>
              <p>{result.answer.content}</p>
            </section>
          )}
          {result.results.length === 0 ? (
            <Empty title="No passage matches">Try other words, or upload a document that answers it.</Empty>
          ) : (
            <ol class="search-results">
              {result.results.map((r, i) => (
                <li class="panel" key={r.citation.chunk_id}>
                  <h3>
                    [{i + 1}] {r.citation.title}
                  </h3>
                  <p>
                    <Badge tone={r.score >= 0.5 ? 'good' : 'warn'}>score {r.score.toFixed(2)}</Badge> · {baseName(r.citation.knowledge_base_id)}
                    {r.citation.heading_path.length > 0 && <> · {r.citation.heading_path.join(' › ')}</>}
                    {r.citation.page !== null && <> · page {r.citation.page}</>}
                  </p>
                  <blockquote>
                    <Excerpt text={r.excerpt} />
                  </blockquote>
                  <p>
                    {r.citation.source_url ? (
                      <a href={r.citation.source_url} target="_blank" rel="noopener noreferrer">
                        Source: {r.citation.source_url}
                      </a>
                    ) : (
                      <a href={`/dashboard/knowledge/bases/${r.citation.knowledge_base_id}`}>Source: {r.citation.title} in {baseName(r.citation.knowledge_base_id)}</a>
                    )}{' '}
                    <span class="hint">
                      (characters {r.citation.start}–{r.citation.end} of <code>{r.citation.document_id}</code>)
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
