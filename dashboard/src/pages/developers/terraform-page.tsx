import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Field, Loading, Page, PagedList, ProblemView, Table } from '../../ui/components.js'
import { usePaged, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { saveBlob } from '../../ui/files.js'
import './tools.css'

type Resource = components['schemas']['TerraformResource']
type Attribute = components['schemas']['TerraformAttribute']
type ResourceList = components['schemas']['TerraformResourceList']

const FLAGS = ['required', 'optional', 'computed', 'sensitive', 'force_new'] as const

function AttributeTable({ r }: { r: Resource }) {
  return (
    <Table
      caption={`Attributes of ${r.type}`}
      rowKey={(a: Attribute) => a.name}
      rows={r.attributes}
      columns={[
        { label: 'Attribute', render: (a) => <code class="nowrap">{a.name}</code> },
        { label: 'Type', render: (a) => <code class="nowrap">{a.element_type ? `${a.type}(${a.element_type})` : a.type}</code> },
        {
          label: 'Flags',
          render: (a) => (
            <ul class="scope-list">
              {FLAGS.filter((f) => a[f]).map((f) => (
                <li>
                  <Badge tone={f === 'required' ? 'warn' : f === 'sensitive' ? 'bad' : 'neutral'}>{f}</Badge>
                </li>
              ))}
            </ul>
          ),
        },
        { label: 'Nested', render: (a) => (a.attributes?.length ? a.attributes.map((n) => n.name).join(', ') : '—') },
        { label: 'Description', render: (a) => a.description ?? '—' },
      ]}
    />
  )
}

/**
 * /dashboard/developers/terraform: the resource types a Terraform provider for this API manages, and this
 * workspace's existing objects as Terraform configuration (import and resource blocks) to copy or download.
 */
export function TerraformPage() {
  // The operation's 200 also documents the text/plain HCL (format=hcl); without it the answer is the list.
  const types = usePaged(async (a, cursor) => (await ok(a.client.GET('/terraform-resources', { params: { query: { cursor, limit: 100 } } }))) as ResourceList)
  const [only, setOnly] = useState('')
  const hcl = useResource(async (a) => (await a.fetch(`/terraform-resources?format=hcl${only ? `&type=${encodeURIComponent(only)}` : ''}`)).text(), [only])
  const fileName = `${only || 'workspace'}.tf`
  return (
    <Page title="Terraform">
      <section class="panel" aria-labelledby="tf-config">
        <h2 id="tf-config">This workspace as configuration</h2>
        <p class="hint">
          Import and resource blocks of the objects this workspace has in this mode: with them, <code>terraform plan</code> after an import plans no change. Secrets are never
          written.
        </p>
        <div class="tf-toolbar">
          <Field label="Resource type">
            {(id) => (
              <select id={id} value={only} onChange={(e) => setOnly(e.currentTarget.value)}>
                <option value="">All types</option>
                {types.items.map((r) => (
                  <option value={r.type}>{r.type}</option>
                ))}
              </select>
            )}
          </Field>
          <div class="form-actions">
            <button type="button" class="primary" disabled={!hcl.data} onClick={() => hcl.data && saveBlob(new Blob([hcl.data], { type: 'text/plain' }), fileName)}>
              Download {fileName}
            </button>
            {hcl.data && <CopyButton text={hcl.data} label="Copy configuration" />}
            <button type="button" onClick={hcl.reload} disabled={hcl.loading}>
              Refresh
            </button>
          </div>
        </div>
        {hcl.error ? (
          <ProblemView problem={hcl.error} onRetry={hcl.reload} />
        ) : hcl.data === undefined ? (
          <Loading label="Reading the workspace’s objects…" />
        ) : (
          <pre class="tf-config" tabIndex={0} aria-label="Terraform configuration">
            <code data-testid="terraform-hcl">{hcl.data.trim() ? hcl.data : '# No objects of this type in this workspace yet.'}</code>
          </pre>
        )}
      </section>
      <section aria-labelledby="tf-types">
        <h2 id="tf-types">Resource types</h2>
        <PagedList list={types} emptyView={<Empty title="No resource types">This server’s API document lists none.</Empty>}>
          {(rows) => (
            <>
              <Table
                caption="Terraform resource types"
                rowKey={(r) => r.type}
                rows={rows}
                columns={[
                  { label: 'Type', render: (r) => <code class="nowrap">{r.type}</code> },
                  { label: 'Description', render: (r) => r.description },
                  { label: 'Create / read / update / delete', render: (r) => <Operations r={r} /> },
                  { label: 'Import by', render: (r) => <ImportBy r={r} /> },
                  { label: 'Attributes', class: 'num', render: (r) => r.attributes.length },
                ]}
              />
              {rows.map((r) => (
                <details class="tf-attributes">
                  <summary>
                    Attributes of <code>{r.type}</code> ({r.attributes.length})
                  </summary>
                  <AttributeTable r={r} />
                </details>
              ))}
            </>
          )}
        </PagedList>
      </section>
    </Page>
  )
}

function Operations({ r }: { r: Resource }) {
  const o = r.operations
  return (
    <span class="break-anywhere">
      {o.create} / {o.read ?? `(${o.list})`} / {o.update ?? '—'} / {o.delete ?? '—'}
    </span>
  )
}

function ImportBy({ r }: { r: Resource }) {
  return (
    <span>
      <code>{r.import.by}</code>
      {r.import.id_format && (
        <>
          {' '}
          (<code>{r.import.id_format}</code>)
        </>
      )}
    </span>
  )
}
