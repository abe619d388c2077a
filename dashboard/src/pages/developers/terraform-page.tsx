import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Field, Loading, Page, PagedList, ProblemView, Table } from '../../ui/components.js'
import { usePaged, useResource } from '../../ui/hooks.js'
import { saveBlob } from '../../ui/files.js'
import './tools.css'
import { t } from '../../i18n/index.js'

type Resource = components['schemas']['TerraformResource']
type Attribute = components['schemas']['TerraformAttribute']
type ResourceList = components['schemas']['TerraformResourceList']

const FLAGS = ['required', 'optional', 'computed', 'sensitive', 'force_new'] as const

function AttributeTable({ r }: { r: Resource }) {
  return (
    <Table
      caption={t('developers.terraformPage.attributesOfType', { type: r.type })}
      rowKey={(a: Attribute) => a.name}
      rows={r.attributes}
      columns={[
        { label: t('developers.terraformPage.attribute'), render: (a) => <code class="nowrap">{a.name}</code> },
        { label: t('developers.oauthAppsDetail.type'), render: (a) => <code class="nowrap">{a.element_type ? `${a.type}(${a.element_type})` : a.type}</code> },
        {
          label: t('developers.terraformPage.flags'),
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
        { label: t('developers.terraformPage.nested'), render: (a) => (a.attributes?.length ? a.attributes.map((n) => n.name).join(', ') : '—') },
        { label: t('developers.terraformPage.description'), render: (a) => a.description ?? '—' },
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
    <Page title={t('developers.terraformPage.terraform')}>
      <section class="panel" aria-labelledby="tf-config">
        <h2 id="tf-config">{t('developers.terraformPage.thisWorkspaceAsConfiguration')}</h2>
        <p class="hint">
          {t('developers.terraformPage.importAndResourceBlocksOf')} <code>{t('developers.terraformPage.terraformPlan')}</code> {t('developers.terraformPage.afterAnImportPlansNo')}
        </p>
        <div class="tf-toolbar">
          <Field label={t('developers.terraformPage.resourceType')}>
            {(id) => (
              <select id={id} value={only} onChange={(e) => setOnly(e.currentTarget.value)}>
                <option value="">{t('developers.terraformPage.allTypes')}</option>
                {types.items.map((r) => (
                  <option value={r.type}>{r.type}</option>
                ))}
              </select>
            )}
          </Field>
          <div class="form-actions">
            <button type="button" class="primary" disabled={!hcl.data} onClick={() => hcl.data && saveBlob(new Blob([hcl.data], { type: 'text/plain' }), fileName)}>
              {t('developers.terraformPage.downloadFilename', { fileName })}
            </button>
            {hcl.data && <CopyButton text={hcl.data} label={t('developers.terraformPage.copyConfiguration')} />}
            <button type="button" onClick={hcl.reload} disabled={hcl.loading}>
              {t('developers.logsList.refresh')}
            </button>
          </div>
        </div>
        {hcl.error ? (
          <ProblemView problem={hcl.error} onRetry={hcl.reload} />
        ) : hcl.data === undefined ? (
          <Loading label={t('developers.terraformPage.readingTheWorkspaceSObjects')} />
        ) : (
          <pre class="tf-config" tabIndex={0} aria-label={t('developers.terraformPage.terraformConfiguration')}>
            <code data-testid="terraform-hcl">{hcl.data.trim() ? hcl.data : '# No objects of this type in this workspace yet.'}</code>
          </pre>
        )}
      </section>
      <section aria-labelledby="tf-types">
        <h2 id="tf-types">{t('developers.terraformPage.resourceTypes')}</h2>
        <PagedList list={types} emptyView={<Empty title={t('developers.terraformPage.noResourceTypes')}>{t('developers.terraformPage.thisServerSApiDocument')}</Empty>}>
          {(rows) => (
            <>
              <Table
                caption={t('developers.terraformPage.terraformResourceTypes')}
                rowKey={(r) => r.type}
                rows={rows}
                columns={[
                  { label: t('developers.oauthAppsDetail.type'), render: (r) => <code class="nowrap">{r.type}</code> },
                  { label: t('developers.terraformPage.description'), render: (r) => r.description },
                  { label: t('developers.terraformPage.createReadUpdateDelete'), render: (r) => <Operations r={r} /> },
                  { label: t('developers.terraformPage.importBy'), render: (r) => <ImportBy r={r} /> },
                  { label: t('developers.terraformPage.attributes'), class: 'num', render: (r) => r.attributes.length },
                ]}
              />
              {rows.map((r) => (
                <details class="tf-attributes">
                  <summary>
                    {t('developers.terraformPage.attributesOf')} <code>{r.type}</code> ({r.attributes.length})
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
