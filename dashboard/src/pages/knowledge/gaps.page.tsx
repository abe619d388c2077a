import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Empty, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { components } from '../../api/schema.js'
import { statusLabel, t } from '../../i18n/index.js'

type Gap = components['schemas']['KnowledgeGap']

/** /dashboard/knowledge/gaps: questions the knowledge could not answer, grouped. */
export default function Gaps() {
  const [status, setStatus] = useState<'open' | 'resolved' | ''>('open')
  const [order, setOrder] = useState<'recent' | 'count'>('recent')
  const gaps = usePaged<Gap>((a, cursor) => ok(a.client.GET('/knowledge/gaps', { params: { query: { cursor, order, ...(status ? { status } : {}) } } })), [status, order])
  return (
    <Page title={t('knowledge.gaps.knowledgeGaps')}>
      <p>{t('knowledge.gaps.questionsWhoseBestPassageScored')}</p>
      <div class="filters">
        <div class="field">
          <label for="gap-status">{t('knowledge.baseDetail.status')}</label>
          <select id="gap-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="open">{t('knowledge.gaps.open')}</option>
            <option value="resolved">{t('knowledge.gaps.resolved')}</option>
            <option value="">{t('knowledge.baseDetail.all')}</option>
          </select>
        </div>
        <div class="field">
          <label for="gap-order">{t('knowledge.gaps.order')}</label>
          <select id="gap-order" value={order} onChange={(e) => setOrder(e.currentTarget.value as typeof order)}>
            <option value="recent">{t('knowledge.gaps.lastAskedFirst')}</option>
            <option value="count">{t('knowledge.gaps.mostAskedFirst')}</option>
          </select>
        </div>
      </div>
      <PagedList list={gaps} emptyView={<Empty title={t('knowledge.gaps.noKnowledgeGaps')}>{t('knowledge.gaps.everyQuestionAskedFoundA')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('knowledge.gaps.knowledgeGaps')}
            rows={rows}
            rowKey={(g) => g.id}
            columns={[
              {
                label: t('knowledge.gaps.question'),
                render: (g) => (
                  <>
                    {g.question}
                    {g.examples.length > 1 && (
                      <p class="hint">
                        {t('knowledge.gaps.alsoAsked')} {g.examples.filter((x) => x !== g.question).join(' · ')}
                      </p>
                    )}
                  </>
                ),
              },
              { label: t('knowledge.gaps.asked'), class: 'num', render: (g) => g.count },
              { label: t('knowledge.gaps.bestScore'), class: 'num', render: (g) => g.best_score.toFixed(2) },
              { label: t('knowledge.baseDetail.status'), render: (g) => <Badge tone={g.status === 'open' ? 'warn' : 'good'}>{statusLabel(g.status)}</Badge> },
              { label: t('knowledge.gaps.lastAsked'), render: (g) => <Time iso={g.last_seen_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
