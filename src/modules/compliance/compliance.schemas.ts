import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
/** A string enum with its literal type (one `enum` keyword). */
const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })

// ---- audit log ----
export const AuditEntry = Type.Object(
  {
    id: Type.String({ examples: ['aud_01JD0000000000000000000000'] }),
    object: Type.Literal('audit_entry'),
    actor: Type.Object({ type: oneOf(['api_key', 'member', 'oauth_app', 'system', 'cli', 'anonymous'] as const), id: Nullable(Type.String()) }, { title: 'AuditActor' }),
    action: Type.String({ description: 'The operationId, job or CLI command.' }),
    target: Type.Object({ type: Nullable(Type.String()), id: Nullable(Type.String()) }, { title: 'AuditTarget' }),
    fields: Type.Array(Type.String(), { description: 'Names of the fields the request set (never their values).' }),
    events: Type.Array(Type.String(), { description: 'Event types the change emitted.' }),
    ip: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
    request_id: Nullable(Type.String()),
    livemode: Type.Boolean(),
    occurred_at: DateTime,
    chain: Type.Object(
      { seq: Nullable(Type.Integer()), prev_hash: Nullable(Type.String()), hash: Nullable(Type.String({ description: 'SHA-256 over the entry and prev_hash; null until sealed (seconds).' })) },
      { title: 'AuditChainLink' },
    ),
  },
  { $id: 'AuditEntry' },
)
export type AuditEntryT = Static<typeof AuditEntry>
export const AuditEntryList = Page(AuditEntry, 'AuditEntry')
export const ListAuditLogQuery = Type.Object(
  {
    ...PageQuery,
    actor_type: Type.Optional(oneOf(['api_key', 'member', 'oauth_app', 'system', 'cli', 'anonymous'] as const)),
    actor_id: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.String({ maxLength: 100 })),
    target_id: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(DateTime),
    to: Type.Optional(DateTime),
  },
  { additionalProperties: false },
)
export type ListAuditLogQueryT = Static<typeof ListAuditLogQuery>

// ---- DSAR ----
export const DSAR_TYPES = ['access', 'erasure', 'rectification'] as const
const DsarStatus = oneOf(['received', 'in_progress', 'completed', 'rejected'] as const, { title: 'DsarStatus' })
const Subject = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phone: Type.Optional(Type.String({ minLength: 2, maxLength: 32, description: 'Any common form; stored as E.164.' })),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your id of the person (a conversation contact’s external_id).' })),
  },
  { additionalProperties: false, title: 'DsarSubjectInput', description: 'At least one identifier.' },
)
export const CreateDsarBody = Type.Object(
  {
    type: oneOf(DSAR_TYPES),
    subject: Subject,
    due_at: Type.Optional(DateTime),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
    changes: Type.Optional(
      Type.Object(
        {
          email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
          phone: Type.Optional(Type.String({ minLength: 2, maxLength: 32 })),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        },
        { additionalProperties: false, minProperties: 1, description: 'rectification: the corrected values.' },
      ),
    ),
  },
  { additionalProperties: false },
)
export type CreateDsarBodyT = Static<typeof CreateDsarBody>
const ModuleProgress = Type.Object(
  {
    module: Type.String(),
    status: oneOf(['pending', 'done', 'failed'] as const),
    records: Type.Record(Type.String(), Type.Integer(), { description: 'Records found, by kind.' }),
    deleted: Nullable(Type.Integer()),
    anonymised: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
  },
  { title: 'DsarModuleProgress' },
)
export const DsarRequest = Type.Object(
  {
    id: Type.String({ examples: ['dsar_01JD0000000000000000000000'] }),
    object: Type.Literal('dsar_request'),
    type: oneOf(DSAR_TYPES),
    status: DsarStatus,
    subject: Type.Object({ email: Nullable(Type.String()), phone: Nullable(Type.String()), external_id: Nullable(Type.String()) }, { title: 'DsarSubject' }),
    changes: Type.Record(Type.String(), Type.String()),
    notes: Nullable(Type.String()),
    due_at: DateTime,
    overdue: Type.Boolean(),
    progress: Type.Array(ModuleProgress),
    records_found: Type.Integer(),
    export: Type.Object(
      {
        status: oneOf(['none', 'pending', 'ready', 'failed'] as const),
        url: Nullable(Type.String({ description: 'The download link (no API key needed) until it expires; then 410.' })),
        expires_at: Nullable(DateTime),
        sha256: Nullable(Type.String()),
        size_bytes: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
      },
      { title: 'DsarExport' },
    ),
    created_at: DateTime,
    updated_at: DateTime,
    completed_at: Nullable(DateTime),
  },
  { $id: 'DsarRequest' },
)
export type DsarRequestT = Static<typeof DsarRequest>
export const DsarRequestList = Page(DsarRequest, 'DsarRequest')
export const ListDsarQuery = Type.Object({ ...PageQuery, status: Type.Optional(DsarStatus), type: Type.Optional(oneOf(DSAR_TYPES)) }, { additionalProperties: false })
export type ListDsarQueryT = Static<typeof ListDsarQuery>

// ---- evidence ----
export const EVIDENCE_KINDS = ['audit_chain', 'access_review', 'retention', 'dsar_timeliness'] as const
export const Evidence = Type.Object(
  {
    id: Type.String({ examples: ['evd_01JD0000000000000000000000'] }),
    object: Type.Literal('compliance_evidence'),
    kind: oneOf(EVIDENCE_KINDS),
    period: Type.Object({ from: DateTime, to: DateTime }, { title: 'EvidencePeriod' }),
    trigger: oneOf(['schedule', 'manual'] as const),
    summary: Type.Record(Type.String(), Type.String()),
    sha256: Type.String({ description: 'SHA-256 of the JSON report.' }),
    generated_at: DateTime,
    download: Type.Object({ pdf: Type.String(), json: Type.String() }, { title: 'EvidenceDownloads' }),
  },
  { $id: 'ComplianceEvidence' },
)
export type EvidenceT = Static<typeof Evidence>
export const EvidenceList = Page(Evidence, 'ComplianceEvidence')
export const ListEvidenceQuery = Type.Object({ ...PageQuery, kind: Type.Optional(oneOf(EVIDENCE_KINDS)) }, { additionalProperties: false })
export type ListEvidenceQueryT = Static<typeof ListEvidenceQuery>
/** The longest period one report covers (a year and a day: a leap year's audit). */
export const EVIDENCE_MAX_DAYS = 366
export const CreateEvidenceBody = Type.Object(
  {
    kind: oneOf(EVIDENCE_KINDS),
    from: Type.Optional({ ...DateTime, description: 'Start of the period (inclusive); default: 30 days before `to`.' }),
    to: Type.Optional({ ...DateTime, description: 'End of the period (exclusive), not in the future; default: now.' }),
  },
  { additionalProperties: false },
)
export type CreateEvidenceBodyT = Static<typeof CreateEvidenceBody>
export const DownloadQuery = Type.Object(
  { format: Type.Optional(oneOf(['pdf', 'json'] as const, { description: 'Default pdf (or json by Accept: application/json).' })) },
  { additionalProperties: false },
)
export const EvidenceReportJson = Type.Object({}, { additionalProperties: true, $id: 'ComplianceEvidenceReport', description: 'The report as JSON (kind, period, summary, sections).' })

// ---- retention ----
export const RetentionValue = Type.Union([Type.Integer({ minimum: 1, maximum: 36_500 }), Type.Literal('keep')], { title: 'RetentionValue', description: 'Days, or keep.' })
export const RetentionPolicies = Type.Object(
  {
    object: Type.Literal('retention_policies'),
    policies: Type.Record(Type.String(), RetentionValue),
    classes: Type.Array(
      Type.Object(
        { name: Type.String(), description: Type.String(), minimum_days: Type.Integer(), fixed: Type.Boolean({ description: 'Not configurable (the Playground: 24 h).' }) },
        { title: 'RetentionClass' },
      ),
    ),
    dry_run: Nullable(Type.Record(Type.String(), Type.Integer(), { description: 'PATCH with dry_run: what each class would delete now; nothing saved.' })),
    last_run: Nullable(Type.Object({ finished_at: DateTime, deleted: Type.Record(Type.String(), Type.Integer()) }, { title: 'RetentionLastRun' })),
    updated_at: Nullable(DateTime),
  },
  { $id: 'RetentionPolicies' },
)
export type RetentionPoliciesT = Static<typeof RetentionPolicies>
export const UpdateRetentionBody = Type.Object(
  { policies: Type.Record(Type.String({ maxLength: 64 }), RetentionValue, { maxProperties: 20 }), dry_run: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
)
export type UpdateRetentionBodyT = Static<typeof UpdateRetentionBody>

// ---- PII redaction ----
export const RedactPiiBody = Type.Object(
  {
    text: Type.Optional(Type.String({ maxLength: 100_000 })),
    message_id: Type.Optional(Type.String({ maxLength: 64 })),
    conversation_id: Type.Optional(Type.String({ maxLength: 64 })),
    types: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 20, uniqueItems: true, description: 'Entity types to find (default all; unknown ones are 422).' })),
    mode: Type.Optional(oneOf(['mask', 'remove', 'hash'] as const, { default: 'mask' })),
    apply: Type.Optional(Type.Boolean({ default: false, description: 'Write the redacted text back to the stored message(s) (audited). Default: preview.' })),
    region: Type.Optional(
      Type.String({
        pattern: '^[a-zA-Z]{2}$',
        description:
          "ISO 3166-1 alpha-2 region whose national phone numbers (no +country code) are found, e.g. GB; default the workspace's default_region. Without one, only international numbers are.",
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of text, message_id, conversation_id.' },
)
export type RedactPiiBodyT = Static<typeof RedactPiiBody>
const Entity = Type.Object(
  { type: Type.String(), start: Type.Integer(), end: Type.Integer(), redacted_start: Type.Integer(), redacted_end: Type.Integer(), replacement: Type.String() },
  { title: 'PiiEntity', description: 'Offsets (UTF-16 code units) in the original text and in the redacted one.' },
)
export const PiiRedaction = Type.Object(
  {
    object: Type.Literal('pii_redaction'),
    mode: oneOf(['mask', 'remove', 'hash'] as const),
    applied: Type.Boolean(),
    region: Nullable(Type.String({ description: "The region national phone numbers were read in (the request's, else the workspace default); null: none." })),
    items: Type.Array(Type.Object({ message_id: Nullable(Type.String()), original: Type.String(), redacted: Type.String(), entities: Type.Array(Entity) }, { title: 'PiiRedactionItem' })),
    entity_count: Type.Integer(),
  },
  { $id: 'PiiRedaction' },
)
export type PiiRedactionT = Static<typeof PiiRedaction>
