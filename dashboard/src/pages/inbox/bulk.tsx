import { useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { contactLabel, memberLabel, type Conversation, type InboxMeta } from './inbox-shared.js'
import { t } from '../../i18n/index.js'

/**
 * Conversations chosen for a bulk action: a click toggles one, a shift-click sets the whole range from
 * the last one clicked to this one (in the order shown) to the clicked one's new state.
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const anchor = useRef<string | undefined>(undefined)
  return {
    selected,
    has: (id: string) => selected.has(id),
    toggle(id: string, order: string[], range: boolean) {
      const on = !selected.has(id)
      const next = new Set(selected)
      const from = anchor.current ? order.indexOf(anchor.current) : -1
      const to = order.indexOf(id)
      const ids = range && from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [id]
      for (const x of ids) {
        if (on) next.add(x)
        else next.delete(x)
      }
      anchor.current = id
      setSelected(next)
    },
    set(ids: string[]) {
      setSelected(new Set(ids))
    },
    clear() {
      anchor.current = undefined
      setSelected(new Set())
    },
  }
}
export type Selection = ReturnType<typeof useSelection>

/** The checkbox in front of a conversation in the list. */
export function SelectBox({ sel, conv, order }: { sel: Selection; conv: Conversation; order: () => string[] }) {
  return (
    <input
      type="checkbox"
      class="select-conv"
      aria-label={t('inbox.bulk.select', { name: `${contactLabel(conv)}${conv.subject ? `: ${conv.subject}` : ''}` })}
      checked={sel.has(conv.id)}
      onClick={(e) => sel.toggle(conv.id, order(), e.shiftKey)}
    />
  )
}

/**
 * The bar over the list while conversations are selected: assign them, add a tag, resolve them. Each is
 * changed through its own call (the API has no bulk operation); what failed is named, the rest is done.
 */
export function BulkBar({ sel, items, meta, onChanged }: { sel: Selection; items: Conversation[]; meta: InboxMeta; onChanged: (c: Conversation) => void }) {
  const { api } = useWorkspace()
  const [assignee, setAssignee] = useState('')
  const [tag, setTag] = useState('')
  const [notice, setNotice] = useState('')
  const [failures, setFailures] = useState<string[]>([])
  const chosen = items.filter((c) => sel.has(c.id))
  const each = useAction(async (verb: (done: number, count: number) => string, change: (c: Conversation) => Promise<Conversation>) => {
    setNotice('')
    const failed: string[] = []
    let done = 0
    for (const c of chosen) {
      try {
        onChanged(await change(c))
        done++
      } catch (err) {
        failed.push(`${contactLabel(c)}: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
    setFailures(failed)
    setNotice(verb(done, chosen.length))
    if (failed.length === 0) sel.clear()
  })
  const path = (c: Conversation) => ({ params: { path: { id: c.id } } })
  const assign = () =>
    each.run(
      (done, count) => t(assignee ? 'inbox.bulk.assigned' : 'inbox.bulk.unassignedDone', { done, count }),
      (c) => ok(api.client.POST('/inbox/conversations/{id}/assign', { ...path(c), body: { assignee_id: assignee || null } })),
    )
  const addTag = () =>
    each.run(
      (done, count) => t('inbox.bulk.tagged', { tag, done, count }),
      (c) => (c.tags.some((t) => t.toLowerCase() === tag.toLowerCase()) ? Promise.resolve(c) : ok(api.client.PATCH('/inbox/conversations/{id}', { ...path(c), body: { tags: [...c.tags, tag] } }))),
    )
  const resolve = () =>
    each.run(
      (done, count) => t('inbox.bulk.resolvedDone', { done, count }),
      (c) => (c.status === 'resolved' ? Promise.resolve(c) : ok(api.client.POST('/inbox/conversations/{id}/resolve', path(c)))),
    )

  if (chosen.length === 0) return <>{notice && <Notice>{notice}</Notice>}</>
  return (
    <div class="bulk-bar panel" role="group" aria-label={t('inbox.bulk.region')}>
      <p style={{ margin: '0 0 0.5rem', display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'center' }}>
        <strong>{t('inbox.bulk.selected', { count: chosen.length })}</strong>
        <button type="button" onClick={() => sel.set(items.map((c) => c.id))} disabled={chosen.length === items.length}>
          {t('inbox.bulk.selectAll', { count: items.length })}
        </button>
        <button type="button" onClick={() => sel.clear()}>
          {t('inbox.bulk.clear')}
        </button>
      </p>
      <div class="filters" style={{ marginBottom: '0.5rem' }}>
        <Field label={t('inbox.bulk.assignTo')}>
          {(id) => (
            <select id={id} value={assignee} onChange={(e) => setAssignee((e.target as HTMLSelectElement).value)}>
              <option value="">{t('inbox.bulk.unassigned')}</option>
              {(meta.members.data ?? []).map((m) => (
                <option value={m.id}>{memberLabel(m)}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" onClick={assign} disabled={each.pending}>
          {t('inbox.bulk.assign')}
        </button>
      </div>
      <div class="filters" style={{ marginBottom: '0.5rem' }}>
        <Field label={t('inbox.bulk.tagWith')}>
          {(id) => (
            <select id={id} value={tag} onChange={(e) => setTag((e.target as HTMLSelectElement).value)}>
              <option value="">{t('inbox.bulk.chooseTag')}</option>
              {(meta.tags.data ?? []).map((t) => (
                <option value={t.name}>{t.name}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" onClick={addTag} disabled={each.pending || !tag}>
          {t('inbox.bulk.addTag')}
        </button>
      </div>
      <button type="button" class="primary" onClick={resolve} disabled={each.pending}>
        {each.pending ? t('inbox.bulk.working') : t('inbox.bulk.resolve')}
      </button>
      {each.error && <ProblemView problem={each.error} />}
      {failures.length > 0 && (
        <ul class="notice notice-bad" aria-label={t('inbox.bulk.notChanged')}>
          {failures.map((f) => (
            <li>{f}</li>
          ))}
        </ul>
      )}
      {notice && <Notice>{notice}</Notice>}
    </div>
  )
}
