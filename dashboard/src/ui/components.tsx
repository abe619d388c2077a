import type { ComponentChildren, JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ApiProblem } from '../api/problem.js'
import { formatDate, t } from '../i18n/index.js'

/** A page: its title (also the document's), optional actions beside it, and its content. */
export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = t('shell.documentTitle', { title })
  }, [title])
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

export function Loading({ label = t('ui.loading') }: { label?: string }) {
  return (
    <p class="state loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  )
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="state empty" role="status">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-hint">{children}</div>}
    </div>
  )
}

/** An API problem as the API gave it: its detail, the field errors, and the request id to quote to support. */
export function ProblemView({ problem, onRetry }: { problem: ApiProblem; onRetry?: () => void }) {
  return (
    <div class="state problem" role="alert">
      <p class="problem-detail">
        <strong>{problem.status ? t('ui.error', { status: String(problem.status) }) : t('ui.networkError')}</strong>: {problem.detail}
      </p>
      {problem.errors.length > 0 && (
        <ul class="problem-errors">
          {problem.errors.map((e) => (
            <li>
              {e.pointer && <code>{e.pointer}</code>} {e.detail}
            </li>
          ))}
        </ul>
      )}
      <p class="problem-meta">
        {problem.code && (
          <span>
            {t('ui.code')} <code>{problem.code}</code>
          </span>
        )}
        {problem.requestId && (
          <span>
            request_id <code class="request-id">{problem.requestId}</code>
          </span>
        )}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('ui.tryAgain')}
        </button>
      )}
    </div>
  )
}

/**
 * The foot of a form or dialog, in one place so every one reads alike: the action's problem (unless
 * `showProblem` is false, for a form that shows it elsewhere), then the main button, which says
 * `busyLabel` and is disabled while the action is pending, and a Cancel button when `onCancel` is given.
 * Without `onConfirm` the main button submits the form; with it, it is a plain button that calls it.
 * `action` is what useAction returns (only `pending` and `error` are read).
 */
export function FormActions({
  action,
  label,
  busyLabel,
  tone = 'primary',
  onConfirm,
  onCancel,
  cancelLabel = t('ui.cancel'),
  showProblem = true,
  disabled = false,
}: {
  action: { pending: boolean; error?: ApiProblem }
  label: string
  busyLabel: string
  tone?: 'primary' | 'danger'
  onConfirm?: () => void
  onCancel?: () => void
  cancelLabel?: string
  showProblem?: boolean
  /** Also disabled while the form cannot be sent (nothing chosen, nothing changed). */
  disabled?: boolean
}) {
  return (
    <>
      {showProblem && action.error && <ProblemView problem={action.error} />}
      <div class="form-actions">
        <button type={onConfirm ? 'button' : 'submit'} class={tone} disabled={action.pending || disabled} onClick={onConfirm}>
          {action.pending ? busyLabel : label}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {cancelLabel}
          </button>
        )}
      </div>
    </>
  )
}

/**
 * The three states every list and detail has: loading (first load), the problem, or empty; otherwise
 * the content.
 */
export function Async<T>(props: {
  loading: boolean
  error?: ApiProblem
  data: T | undefined
  empty?: (d: T) => boolean
  emptyView?: ComponentChildren
  onRetry?: () => void
  children: (d: T) => ComponentChildren
}) {
  if (props.error) return <ProblemView problem={props.error} onRetry={props.onRetry} />
  if (props.data === undefined) return props.loading ? <Loading /> : null
  if (props.empty?.(props.data)) return <>{props.emptyView ?? <Empty title={t('ui.nothingYet')} />}</>
  return <>{props.children(props.data)}</>
}

export interface Column<T> {
  label: string
  render: (row: T) => ComponentChildren
  class?: string
}

/** An accessible data table (caption, column headers), scrolling sideways on a phone. */
export function Table<T>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string }) {
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.class}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td class={c.class}>{c.render(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function LoadMore({ hasMore, loading, onMore }: { hasMore: boolean; loading: boolean; onMore: () => void }) {
  if (!hasMore) return null
  return (
    <p class="load-more">
      <button type="button" onClick={onMore} disabled={loading}>
        {loading ? t('ui.loading') : t('ui.loadMore')}
      </button>
    </p>
  )
}

/**
 * A list read page by page (`list` is what usePaged returns): loading while nothing is shown yet, the
 * problem with "Try again" when nothing could be loaded, `emptyView` when there is nothing; otherwise the
 * rows as `children` draws them, the problem of a later load below them (a failed "Load more" keeps the
 * rows already read, and the button stays to try again), and the Load more button.
 */
export function PagedList<T>({
  list,
  emptyView,
  loadingLabel,
  children,
}: {
  list: { items: T[]; error?: ApiProblem; loading: boolean; hasMore: boolean; more: () => void; reload: () => void }
  emptyView: ComponentChildren
  loadingLabel?: string
  children: (rows: T[]) => ComponentChildren
}) {
  if (list.items.length === 0) {
    if (list.error) return <ProblemView problem={list.error} onRetry={list.reload} />
    return list.loading ? <Loading label={loadingLabel} /> : <>{emptyView}</>
  }
  return (
    <>
      {children(list.items)}
      {list.error && <ProblemView problem={list.error} />}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={list.more} />
    </>
  )
}

/** A modal dialog (the native <dialog>: focus moves in, Escape closes, the page behind is inert). */
export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (open && !d.open) d.showModal()
    if (!open && d.open) d.close()
  }, [open])
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <header class="dialog-head">
            <h2 id="dialog-title">{title}</h2>
            <button type="button" class="icon" aria-label={t('ui.close')} onClick={onClose}>
              ×
            </button>
          </header>
          <div class="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  )
}

/**
 * A secret shown once: the value, a copy button, and the warning that it will not be shown again; then
 * `children` (what the secret is for) and, with `onDone`, the button that dismisses it (the caller drops
 * the value from memory there), after any other `actions`.
 */
export function SecretOnce({
  label,
  value,
  children,
  onDone,
  doneLabel = t('ui.done'),
  actions,
}: {
  label: string
  value: string
  children?: ComponentChildren
  onDone?: () => void
  doneLabel?: string
  actions?: ComponentChildren
}) {
  return (
    <>
      <div class="secret-once">
        <p>
          <strong>{label}</strong> {t('ui.secretOnce')}
        </p>
        <div class="secret-row">
          <code class="secret" data-testid="secret-value">
            {value}
          </code>
          <CopyButton text={value} />
        </div>
      </div>
      {children}
      {onDone && (
        <div class="form-actions">
          {actions}
          <button type="button" class={actions ? undefined : 'primary'} onClick={onDone}>
            {doneLabel}
          </button>
        </div>
      )}
    </>
  )
}

export function CopyButton({ text, label = t('ui.copy') }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          setCopied(true)
          setTimeout(() => setCopied(false), 2000)
        } catch {
          setCopied(false)
        }
      }}
    >
      {copied ? t('ui.copied') : label}
      <span class="visually-hidden" aria-live="polite">
        {copied ? t('ui.toClipboard') : ''}
      </span>
    </button>
  )
}

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info'
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>
}

/** A labelled form control: the label, the control, an optional hint tied to it by aria-describedby. */
let fieldSeq = 0
export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string, describedBy?: string) => JSX.Element }) {
  const [id] = useState(() => `f${++fieldSeq}`)
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id, hint ? `${id}-hint` : undefined)}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}

/** A notice that screen readers announce (after an action succeeded). */
export function Notice({ tone = 'good', children }: { tone?: Tone; children: ComponentChildren }) {
  return (
    <p class={`notice notice-${tone}`} role="status" aria-live="polite">
      {children}
    </p>
  )
}

/** A time as the reader's language writes it (formatDate). */
export const formatTime = (iso: string | null | undefined): string => formatDate(iso)

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>
  return (
    <time dateTime={iso} title={iso}>
      {formatTime(iso)}
    </time>
  )
}
