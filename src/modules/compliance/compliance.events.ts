import { Type } from 'typebox'
import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { DsarRequest, Evidence, type DsarRequestT } from './compliance.schemas.js'

const DSAR: DsarRequestT = {
  id: 'dsar_01JD0000000000000000000000',
  object: 'dsar_request',
  type: 'access',
  status: 'received',
  subject: { email: 'ada@example.com', phone: null, external_id: null },
  changes: {},
  notes: null,
  due_at: '2026-12-29T09:00:00.000Z',
  overdue: false,
  progress: [],
  records_found: 0,
  export: { status: 'none', url: null, expires_at: null, sha256: null, size_bytes: null, error: null },
  created_at: '2026-11-29T09:00:00.000Z',
  updated_at: '2026-11-29T09:00:00.000Z',
  completed_at: null,
}
const RetentionRun = Type.Object(
  { object: Type.Literal('retention_run'), id: Type.String(), finished_at: Type.String({ format: 'date-time' }), deleted: Type.Record(Type.String(), Type.Integer()) },
  { $id: 'RetentionRun', description: 'One enforcement run: what each class deleted.' },
)

const AuditCheckpoint = Type.Object(
  {
    object: Type.Literal('audit_checkpoint'),
    workspace_id: Type.String(),
    seq: Type.Integer({ minimum: 1, description: 'The position of the chain head checkpointed.' }),
    mac: Type.String({ description: 'The chain link (HMAC-SHA256, hex) of that entry.' }),
    created_at: Type.String({ format: 'date-time' }),
    key_id: Type.String({ description: 'Names the server secret whose key signed it (not the key).' }),
    signature: Type.String({ description: 'HMAC-SHA256 under a key of the server secret over workspace_id, seq, mac and created_at.' }),
  },
  { $id: 'AuditCheckpoint', description: "A signed checkpoint of the workspace's audit chain head: keep it outside the service; a later chain must still hold this entry (docs/compliance.md)." },
)

/** Every event type of the compliance module. */
export const COMPLIANCE_EVENTS = defineEvents(
  'compliance',
  { scope: 'read', minRole: 'admin' },
  {
    'dsar.created': eventType({ description: 'A data-subject request was received.', schema: DsarRequest, example: DSAR }),
    'dsar.completed': eventType({
      description: 'A data-subject request was worked through every module (`progress` says what each found and did).',
      schema: DsarRequest,
      example: {
        ...DSAR,
        status: 'completed',
        completed_at: '2026-11-29T09:00:05.000Z',
        progress: [{ module: 'inbox', status: 'done', records: { conversations: 2, messages: 14 }, deleted: null, anonymised: null, error: null }],
        records_found: 16,
      },
    }),
    'retention.enforced': eventType({
      description: 'Retention policies were enforced: what each class deleted.',
      schema: RetentionRun,
      example: { object: 'retention_run', id: 'ret_01JD0000000000000000000000', finished_at: '2026-11-29T09:10:00.000Z', deleted: { messages: 120, call_recordings: 3 } },
    }),
    'audit.checkpoint': eventType({
      description:
        "The audit chain's head was checkpointed (with each audit-chain evidence report): store it where the service's database cannot reach, to detect entries later deleted from the end of the chain.",
      schema: AuditCheckpoint,
      example: {
        object: 'audit_checkpoint',
        workspace_id: 'ws_01JD0000000000000000000000',
        seq: 1204,
        mac: 'b'.repeat(64),
        created_at: '2026-11-29T00:05:00.000Z',
        key_id: '1a2b3c4d',
        signature: 'c'.repeat(64),
      },
    }),
    'evidence.generated': eventType({
      description: 'An evidence report was generated (PDF and JSON downloadable).',
      schema: Evidence,
      example: {
        id: 'evd_01JD0000000000000000000000',
        object: 'compliance_evidence',
        kind: 'audit_chain',
        period: { from: '2026-11-28T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z' },
        trigger: 'schedule',
        summary: { Result: 'Intact', 'Entries verified': '1,204' },
        sha256: 'a'.repeat(64),
        generated_at: '2026-11-29T00:05:00.000Z',
        download: {
          pdf: 'https://api.example.com/v2/compliance/evidence/evd_01JD0000000000000000000000/download?format=pdf',
          json: 'https://api.example.com/v2/compliance/evidence/evd_01JD0000000000000000000000/download?format=json',
        },
      },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof COMPLIANCE_EVENTS> {}
}
