import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead } from './common.js'
import { LeadForm } from './lead-form.js'
import { t } from '../../i18n/index.js'

const label = (l: Lead) => l.name ?? l.email ?? l.id

/** Edit (PATCH, in a dialog) and Delete (after a confirmation: the lead and its activities go for good). */
export function LeadActions({ lead, onChanged }: { lead: Lead; onChanged: (l: Lead) => void }) {
  const { api } = useWorkspace()
  const { route } = useLocation()
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const remove = useAction(async () => {
    await ok(api.client.DELETE('/leads/{id}', { params: { path: { id: lead.id } } }))
    setDeleting(false)
    route('/dashboard/leads')
  })
  return (
    <>
      <button type="button" onClick={() => setEditing(true)}>
        {t('leads.leadActions.edit')}
      </button>
      <button
        type="button"
        class="danger"
        onClick={() => {
          remove.clear()
          setDeleting(true)
        }}
      >
        {t('leads.leadActions.delete')}
      </button>
      <Dialog open={editing} title={t('leads.leadActions.editLead', { lead: label(lead) })} onClose={() => setEditing(false)}>
        <LeadForm
          lead={lead}
          onSaved={(l) => {
            setEditing(false)
            onChanged(l)
          }}
        />
      </Dialog>
      <Dialog open={deleting} title={t('leads.leadActions.deleteThisLead')} onClose={() => setDeleting(false)}>
        <p>
          <strong>{label(lead)}</strong> {t('leads.leadActions.andAllItsActivitiesAre')}
        </p>
        <FormActions
          action={remove}
          label={t('leads.leadActions.deleteLead')}
          busyLabel={t('leads.leadActions.deleting')}
          tone="danger"
          onConfirm={() => void remove.run()}
          onCancel={() => setDeleting(false)}
        />
      </Dialog>
    </>
  )
}
