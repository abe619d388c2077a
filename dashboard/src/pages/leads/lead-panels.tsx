import { useEffect, useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead, LeadActivity, LeadStatus } from './common.js'
import { MOVES, parseFactor, ScoreBadge, StatusBadge } from './common.js'
import { statusLabel, t } from '../../i18n/index.js'

/** The score and each factor with what it added. */
export function ScoreFactors({ lead }: { lead: Lead }) {
  return (
    <section class="panel" aria-labelledby="score-title">
      <h2 id="score-title">
        {t('leads.leadPanels.score')} <ScoreBadge score={lead.score.score} />
      </h2>
      {lead.score.factors.length === 0 ? (
        <p>{t('leads.leadPanels.noSignalYet')}</p>
      ) : (
        <div class="table-wrap" role="region" aria-label={t('leads.leadPanels.scoreFactors')} tabIndex={0}>
          <table>
            <caption class="visually-hidden">{t('leads.leadPanels.scoreFactors')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('leads.leadPanels.factor')}</th>
                <th scope="col" class="num">
                  {t('leads.leadPanels.points')}
                </th>
              </tr>
            </thead>
            <tbody>
              {lead.score.factors.map((f) => {
                const { points, reason } = parseFactor(f)
                return (
                  <tr>
                    <td>{reason}</td>
                    <td class="num">{points === null ? '—' : points > 0 ? `+${points}` : points}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <p class="hint">{t('leads.leadPanels.aSumOfNamedSignals')}</p>
    </section>
  )
}

/** Moves the lead in its status machine (only the moves the machine allows are offered). */
export function StatusChange({ lead, onChanged }: { lead: Lead; onChanged: (l: Lead) => void }) {
  const { api } = useWorkspace()
  const moves = MOVES[lead.status]
  const [to, setTo] = useState<LeadStatus | ''>('')
  const [reason, setReason] = useState('')
  const [done, setDone] = useState<string>()
  const change = useAction(async () => {
    if (!to) return
    const next = await ok(api.client.POST('/leads/{id}/status', { params: { path: { id: lead.id } }, body: { status: to, ...(reason.trim() ? { reason: reason.trim() } : {}) } }))
    setDone(t('leads.leadPanels.statusChangedFromStatusTo', { status: statusLabel(lead.status), status2: statusLabel(next.status) }))
    setTo('')
    setReason('')
    onChanged(next)
  })
  return (
    <section class="panel" aria-labelledby="status-title">
      <h2 id="status-title">
        {t('leads.leadPanels.status')} <StatusBadge status={lead.status} />
      </h2>
      {done && <Notice>{done}</Notice>}
      {moves.length === 0 ? (
        <p>{t('leads.leadPanels.convertedIsFinal')}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            setDone(undefined)
            void change.run()
          }}
        >
          <Field label={t('leads.leadPanels.moveTo')}>
            {(id) => (
              <select id={id} required value={to} onChange={(e) => setTo(e.currentTarget.value as LeadStatus)}>
                <option value="">{t('leads.leadPanels.choose')}</option>
                {moves.map((s) => (
                  <option value={s}>{statusLabel(s)}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('leads.leadPanels.reasonOptional')}>{(id) => <input id={id} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}</Field>
          {change.error && <ProblemView problem={change.error} />}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={change.pending || !to}>
              {t('leads.leadPanels.changeStatus')}
            </button>
          </div>
        </form>
      )}
    </section>
  )
}

/** The CRM link and "Sync now"; while a sync is pending the lead is read again until it ends. */
export function CrmSync({ lead, onChanged }: { lead: Lead; onChanged: (l: Lead) => void }) {
  const { api } = useWorkspace()
  const [note, setNote] = useState<string>()
  const sync = useAction(async () => {
    const next = await ok(api.client.POST('/leads/{id}/sync', { params: { path: { id: lead.id } } }))
    setNote(t('leads.leadPanels.syncQueued'))
    onChanged(next)
  })
  const pending = lead.crm.sync_status === 'pending'
  const latest = useRef(onChanged)
  latest.current = onChanged
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(async () => {
      try {
        const next = await ok(api.client.GET('/leads/{id}', { params: { path: { id: lead.id } } }))
        if (next.crm.sync_status !== 'pending') {
          setNote(next.crm.sync_status === 'synced' ? t('leads.leadPanels.syncedToTheCrm') : t('leads.leadPanels.syncSyncstatus', { syncStatus: statusLabel(next.crm.sync_status) }))
          latest.current(next)
        }
      } catch {
        // tried again on the next tick
      }
    }, 1500)
    return () => clearInterval(timer)
  }, [pending, lead.id])
  return (
    <section class="panel" aria-labelledby="crm-title">
      <h2 id="crm-title">{t('leads.leadPanels.crmSync')}</h2>
      <dl class="facts">
        <dt>{t('leads.leadPanels.status')}</dt>
        <dd>
          <StatusBadge status={lead.crm.sync_status} />
        </dd>
        <dt>{t('leads.leadPanels.provider')}</dt>
        <dd>{lead.crm.provider ?? '—'}</dd>
        <dt>{t('leads.leadPanels.crmRecord')}</dt>
        <dd>{lead.crm.external_id ? <code>{lead.crm.external_id}</code> : '—'}</dd>
        <dt>{t('leads.leadPanels.lastSynced')}</dt>
        <dd>
          <Time iso={lead.crm.last_synced_at} />
        </dd>
        {lead.crm.last_error && (
          <>
            <dt>{t('leads.leadPanels.lastError')}</dt>
            <dd>{lead.crm.last_error}</dd>
          </>
        )}
      </dl>
      {note && <Notice tone={lead.crm.sync_status === 'failed' ? 'bad' : 'good'}>{note}</Notice>}
      {sync.error && <ProblemView problem={sync.error} />}
      <div class="form-actions">
        <button type="button" disabled={sync.pending || pending} onClick={() => void sync.run()}>
          {pending ? t('leads.leadPanels.syncing') : t('leads.leadPanels.syncNow')}
        </button>
      </div>
    </section>
  )
}

/** The service words its own activities (status changes, qualifications, syncs) in `subject`. */
const describe = (a: LeadActivity): string => a.subject ?? a.type.replace('_', ' ')

export function ActivityItem({ a }: { a: LeadActivity }) {
  return (
    <li class="panel">
      <p>
        <StatusBadge status={a.type.replace('_', ' ')} /> <strong>{describe(a)}</strong>
      </p>
      {a.body && <p>{a.body}</p>}
      <p class="hint">
        <Time iso={a.occurred_at} /> {t('leads.leadPanels.by')} <code>{a.actor}</code>
      </p>
    </li>
  )
}
