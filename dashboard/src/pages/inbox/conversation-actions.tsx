import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { memberLabel, type Conversation, type InboxMeta } from './inbox-shared.js'

/** Assign, resolve or reopen, and the conversation's tags (add, remove, create a new one). */
export function ConversationActions({ conv, meta, onChanged }: { conv: Conversation; meta: InboxMeta; onChanged: (c: Conversation) => void }) {
  const { api } = useWorkspace()
  const [assignee, setAssignee] = useState(conv.assignee_id ?? '')
  // Assigned elsewhere (another member, a shortcut, the event stream): the choice shows who it is now.
  useEffect(() => setAssignee(conv.assignee_id ?? ''), [conv.assignee_id])
  const [tag, setTag] = useState('')
  const [newTag, setNewTag] = useState('')
  const [notice, setNotice] = useState('')
  const path = { params: { path: { id: conv.id } } }
  const done = (c: Conversation, what: string) => {
    onChanged(c)
    setNotice(what)
  }

  const assign = useAction(async () => {
    const c = await ok(api.client.POST('/inbox/conversations/{id}/assign', { ...path, body: { assignee_id: assignee || null } }))
    const m = meta.members.data?.find((x) => x.id === c.assignee_id)
    done(c, c.assignee_id ? `Assigned to ${m ? (m.name ?? m.email) : c.assignee_id}.` : 'Unassigned.')
  })
  const resolve = useAction(async () => done(await ok(api.client.POST('/inbox/conversations/{id}/resolve', path)), 'Conversation resolved.'))
  const reopen = useAction(async () => done(await ok(api.client.PATCH('/inbox/conversations/{id}', { ...path, body: { status: 'open' } })), 'Conversation reopened.'))
  const setTags = useAction(async (tags: string[], what: string) => done(await ok(api.client.PATCH('/inbox/conversations/{id}', { ...path, body: { tags } })), what))
  const createTag = useAction(async () => {
    const t = await ok(api.client.POST('/inbox/tags', { body: { name: newTag.trim() } }))
    meta.tags.reload()
    setNewTag('')
    await setTags.run([...conv.tags, t.name], `Tag ${t.name} created and added.`)
  })
  const problem = assign.error ?? resolve.error ?? reopen.error ?? setTags.error ?? createTag.error
  const available = (meta.tags.data ?? []).filter((t) => !conv.tags.some((x) => x.toLowerCase() === t.name.toLowerCase()))

  return (
    <div class="conversation-actions" style={{ borderTop: '1px solid var(--line)', borderBottom: '1px solid var(--line)', padding: '0.5rem 0', marginBottom: '0.75rem' }}>
      <div class="filters" style={{ marginBottom: '0.5rem' }}>
        <form
          style={{ display: 'flex', gap: '0.5rem', alignItems: 'end', flexWrap: 'wrap' }}
          onSubmit={(e) => {
            e.preventDefault()
            void assign.run()
          }}
        >
          <Field label="Assignee">
            {(id) => (
              <select id={id} value={assignee} onChange={(e) => setAssignee((e.target as HTMLSelectElement).value)}>
                <option value="">Unassigned</option>
                {(meta.members.data ?? []).map((m) => (
                  <option value={m.id}>{memberLabel(m)}</option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" disabled={assign.pending || assignee === (conv.assignee_id ?? '')}>
            Assign
          </button>
        </form>
        {conv.status === 'resolved' ? (
          <button type="button" onClick={() => reopen.run()} disabled={reopen.pending}>
            Reopen
          </button>
        ) : (
          <button type="button" class="primary" onClick={() => resolve.run()} disabled={resolve.pending}>
            Resolve
          </button>
        )}
      </div>
      <div>
        <h3 style={{ fontSize: '1rem', margin: '0.25rem 0' }}>Tags</h3>
        {conv.tags.length === 0 ? (
          <p style={{ margin: '0 0 0.5rem' }}>No tags.</p>
        ) : (
          <ul aria-label="Tags of this conversation" style={{ listStyle: 'none', padding: 0, margin: '0 0 0.5rem', display: 'flex', flexWrap: 'wrap', gap: '0.4rem' }}>
            {conv.tags.map((t) => (
              <li class="badge" style={{ display: 'inline-flex', alignItems: 'center', gap: '0.25rem' }}>
                {t}
                <button
                  type="button"
                  class="icon"
                  style={{ fontSize: '1rem', padding: '0 0.2rem' }}
                  aria-label={`Remove tag ${t}`}
                  disabled={setTags.pending}
                  onClick={() =>
                    setTags.run(
                      conv.tags.filter((x) => x !== t),
                      `Tag ${t} removed.`,
                    )
                  }
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div class="filters" style={{ marginBottom: 0 }}>
          <form
            style={{ display: 'flex', gap: '0.5rem', alignItems: 'end', flexWrap: 'wrap' }}
            onSubmit={(e) => {
              e.preventDefault()
              if (tag) void setTags.run([...conv.tags, tag], `Tag ${tag} added.`).then(() => setTag(''))
            }}
          >
            <Field label="Add a tag">
              {(id) => (
                <select id={id} value={tag} onChange={(e) => setTag((e.target as HTMLSelectElement).value)}>
                  <option value="">Choose a tag…</option>
                  {available.map((t) => (
                    <option value={t.name}>{t.name}</option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" disabled={!tag || setTags.pending}>
              Add tag
            </button>
          </form>
          <form
            style={{ display: 'flex', gap: '0.5rem', alignItems: 'end', flexWrap: 'wrap' }}
            onSubmit={(e) => {
              e.preventDefault()
              if (newTag.trim()) void createTag.run()
            }}
          >
            <Field label="New tag">{(id) => <input id={id} value={newTag} maxLength={50} onInput={(e) => setNewTag((e.target as HTMLInputElement).value)} />}</Field>
            <button type="submit" disabled={!newTag.trim() || createTag.pending}>
              Create and add
            </button>
          </form>
        </div>
      </div>
      {problem && <ProblemView problem={problem} />}
      {notice && !problem && <Notice>{notice}</Notice>}
    </div>
  )
}
