import { createHash } from 'node:crypto'
import { inheritAudit } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from '../compliance.repository.js'
import { auditView } from '../compliance.views.js'
import { EXPORT_LINK_HOURS, type DsarJobPayload } from '../dsar.service.js'
import { subjectOfRow, withNames } from './process-dsar.job.js'

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
export const exportKey = (tenant: Tenant, id: string) => `compliance/${tenant.workspaceId}/${tenant.mode}/${id}.zip`.toLowerCase()

/**
 * The subject's data as a ZIP (JSZip): one JSON file per module with what it holds about them (as the API
 * shows it), their stored files (call recordings, SMS / WhatsApp media) under files/, the audit entries about those records,
 * a manifest with the SHA-256 and size of every file, and a plain-text summary. Written whole to the blob
 * store, then the request points at it with a link valid for EXPORT_LINK_HOURS.
 */
export const exportDsarJob = (k: Kernel, services: Services) =>
  defineJob<DsarJobPayload>({
    name: 'compliance.dsar-export',
    retrySchedule: [5, 30, 120],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const row = await repo.findDsar(k.db, tenant, p.dsar_id)
      if (!row || row.export_status !== 'pending') return
      try {
        const subject = await withNames(k, services, tenant, subjectOfRow(row))
        // Loaded when an export is made, not in every process (scripts/build.mjs keeps it external).
        const { default: JSZip } = await import('jszip')
        const zip = new JSZip()
        const manifest: { name: string; sha256: string; bytes: number; records?: number }[] = []
        const add = (name: string, data: Buffer | string, records?: number) => {
          const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8')
          zip.file(name, bytes)
          manifest.push({ name, sha256: sha256(bytes), bytes: bytes.length, ...(records === undefined ? {} : { records }) })
        }
        const ids: string[] = []
        const counts: string[] = []
        for (const m of k.modules) {
          if (!m.privacy) continue
          const found = await m.privacy.collect(k, services, tenant, subject)
          ids.push(...found.ids)
          const n = Object.values(found.records).reduce((a, l) => a + l.length, 0)
          add(`${m.name}.json`, JSON.stringify(found.records, null, 2), n)
          counts.push(
            `${m.name}: ${
              Object.entries(found.records)
                .map(([kind, l]) => `${l.length} ${kind}`)
                .join(', ') || 'nothing'
            }`,
          )
          for (const f of found.files) {
            if (await k.blobs.stat(f.key)) add(`files/${f.name}`, Buffer.concat(await k.blobs.read(f.key).toArray()))
          }
        }
        const audit = (await repo.auditAbout(k.db, tenant, [...new Set(ids)])).map(auditView)
        add('audit.json', JSON.stringify(audit, null, 2), audit.length)
        const generated = iso(k.clock.now())
        const who = [subject.email, subject.phone, subject.external_id].filter(Boolean).join(', ')
        add(
          'summary.txt',
          [
            `Data subject access export ${row.id}`,
            `Subject: ${who}`,
            `Workspace: ${tenant.workspaceId} (${tenant.mode})`,
            `Generated: ${generated}`,
            '',
            'Records by module:',
            ...counts.map((c) => `  ${c}`),
            `  audit entries about these records: ${audit.length}`,
            '',
            'manifest.json lists every file with its SHA-256.',
          ].join('\n') + '\n',
        )
        zip.file('manifest.json', JSON.stringify({ dsar_id: row.id, subject, generated_at: generated, files: manifest }, null, 2))
        const archive = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
        const key = exportKey(tenant, row.id)
        const { size } = await k.blobs.put(key, archive, { contentType: 'application/zip' })
        const now = k.clock.now()
        await repo.updateDsar(
          k.db,
          tenant,
          row.id,
          {
            export_status: 'ready',
            export_key: key,
            export_sha256: sha256(archive),
            export_size: size,
            export_expires_at: iso(new Date(now.getTime() + EXPORT_LINK_HOURS * 3600_000)),
            updated_at: iso(now),
          },
          { export_status: 'pending' },
        )
      } catch (err) {
        if (ctx.attempt <= 3) throw err
        await repo.updateDsar(k.db, tenant, row.id, { export_status: 'failed', export_error: (err as Error).message.slice(0, 500), updated_at: iso(k.clock.now()) }, { export_status: 'pending' })
      }
    },
  })
