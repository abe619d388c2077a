import { Type, type Static } from 'typebox'
import { Nullable } from '../../kernel/http/schemas.js'
import type { Tenant } from '../../kernel/tenant.js'

export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'Up to 50 string key/value pairs (keys ≤ 40, values ≤ 500 characters).',
})

const CrmProvider = Type.Union([Type.Literal('hubspot'), Type.Literal('webhook')], { title: 'CrmProvider' })
export const CrmSettings = Type.Object(
  {
    provider: CrmProvider,
    base_url: Nullable(Type.String({ description: 'hubspot: the API base URL (https://api.hubapi.com by default).' })),
    url: Nullable(Type.String({ description: 'webhook: where each synced lead is POSTed, signed.' })),
    access_token_set: Type.Boolean({ description: 'hubspot: a private-app token is stored (encrypted; never shown).' }),
    signing_secret_set: Type.Boolean({ description: 'webhook: a signing secret is stored (encrypted; never shown).' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WorkspaceCrmSettings', description: 'The CRM leads are synced to (POST /leads/{id}/sync), for the mode of the key that reads it.' },
)
export const CrmSettingsInput = Type.Object(
  {
    provider: CrmProvider,
    base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500 })),
    access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 500, writeOnly: true, description: 'hubspot: required the first time; kept when left out.' })),
    url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'webhook: required.' })),
    signing_secret: Type.Optional(Type.String({ minLength: 16, maxLength: 200, writeOnly: true, description: 'webhook: required the first time; kept when left out.' })),
  },
  { additionalProperties: false, title: 'WorkspaceCrmSettingsInput' },
)
export type CrmSettingsInputT = Static<typeof CrmSettingsInput>

export const VoiceCarrierSettings = Type.Object(
  {
    provider: Type.Literal('twilio'),
    account_sid: Type.String(),
    base_url: Type.String({ description: 'Twilio REST base URL (https://api.twilio.com by default).' }),
    auth_token_set: Type.Boolean({ description: 'An auth token is stored (encrypted; never shown).' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WorkspaceVoiceSettings', description: 'The live carrier of this workspace (live keys only: the sandbox always uses the simulated carrier).' },
)
export const VoiceCarrierSettingsInput = Type.Object(
  {
    provider: Type.Literal('twilio'),
    account_sid: Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'Your Twilio Account SID.' }),
    auth_token: Type.Optional(Type.String({ minLength: 16, maxLength: 200, writeOnly: true, description: 'Required the first time; kept when left out.' })),
    base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500 })),
  },
  { additionalProperties: false, title: 'WorkspaceVoiceSettingsInput' },
)
export type VoiceCarrierSettingsInputT = Static<typeof VoiceCarrierSettingsInput>

export const Workspace = Type.Object(
  {
    id: Type.String({ examples: ['ws_01JD0000000000000000000000'] }),
    object: Type.Literal('workspace'),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin' }),
    default_language: Type.String({ description: 'BCP 47 language tag, e.g. en or pt-BR' }),
    default_region: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 region where phone numbers written without +country code are read (PII redaction); null: none.' })),
    metadata: Metadata,
    livemode: Type.Boolean({ description: 'Whether this view was read with a live key' }),
    crm: Nullable(CrmSettings),
    lead_auto_create_score: Nullable(Type.Integer({ description: 'A conversation whose lead score reaches this creates its lead (docs/leads.md); null: never.' })),
    voice: Nullable(VoiceCarrierSettings),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Workspace' },
)
export type WorkspaceT = Static<typeof Workspace>

export const UpdateWorkspaceBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    default_language: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$' })),
    default_region: Type.Optional(Nullable(Type.String({ pattern: '^[a-zA-Z]{2}$', description: 'ISO 3166-1 alpha-2 code with phone number metadata (e.g. GB, US); null: none.' }))),
    metadata: Type.Optional(Metadata),
    crm: Type.Optional(Type.Union([CrmSettingsInput, Type.Null()], { description: 'The CRM of this mode (a test key sets the test one); null removes it.' })),
    lead_auto_create_score: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
    voice: Type.Optional(Type.Union([VoiceCarrierSettingsInput, Type.Null()], { description: 'The live voice carrier (Twilio); null returns to the simulated carrier. Live keys only.' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateWorkspaceBody' },
)

export const MemberRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')], { title: 'WorkspaceMemberRole' })
export const MemberStatus = Type.Union([Type.Literal('invited'), Type.Literal('active')], { title: 'WorkspaceMemberStatus' })

export const Member = Type.Object(
  {
    id: Type.String({ examples: ['mem_01JD0000000000000000000000'] }),
    object: Type.Literal('workspace_member'),
    workspace_id: Type.String(),
    email: Type.String({ format: 'email' }),
    name: Nullable(Type.String()),
    role: MemberRole,
    status: MemberStatus,
    invitation_url: Nullable(Type.String({ description: 'Link the invitee opens to join; null once active.' })),
    invited_at: Type.String({ format: 'date-time' }),
    joined_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WorkspaceMember' },
)
export type MemberT = Static<typeof Member>

export const InviteMemberBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    role: Type.Optional(MemberRole),
  },
  { additionalProperties: false, title: 'InviteWorkspaceMemberBody' },
)

export const UpdateMemberBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    role: Type.Optional(MemberRole),
    status: Type.Optional(Type.Literal('active', { description: 'Mark an invitation as accepted.' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateWorkspaceMemberBody' },
)

export const WorkspaceIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const MemberParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  member_id: Type.String({ minLength: 1, maxLength: 64 }),
})

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date', description: 'First UTC day (YYYY-MM-DD); default 29 days before `to`.' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last UTC day (YYYY-MM-DD), inclusive; default today.' })),
  },
  { additionalProperties: false },
)

const Counters = Type.Record(Type.String(), Type.Integer())
export const Usage = Type.Object(
  {
    object: Type.Literal('workspace_usage'),
    workspace_id: Type.String(),
    livemode: Type.Boolean(),
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    totals: Type.Object({ api_requests: Type.Integer(), api_errors: Type.Integer() }, { additionalProperties: Type.Integer() }),
    by_module: Type.Record(Type.String(), Type.Integer(), { description: 'API requests per module' }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        api_requests: Type.Integer(),
        api_errors: Type.Integer(),
        by_module: Counters,
        metrics: Counters,
      }),
    ),
  },
  { $id: 'WorkspaceUsage' },
)
export type UsageT = Static<typeof Usage>

/**
 * A part of the workspace settings that another module owns and uses (leads: `crm`, voice: `voice`),
 * registered with services.workspaces.registerSettings. Workspaces stores it as JSON in the
 * workspace_settings column of the same name and takes it in PATCH /workspaces/{id}; the owner decides
 * what is stored (secrets sealed under the workspace id and mode), shown and resealed.
 */
export interface SettingsSection<Input = never> {
  readonly column: 'crm' | 'voice'
  /** Refuses an input before anything else is checked (422), e.g. one the tenant's mode cannot use. */
  check?(tenant: Tenant, input: Input): void
  /** The URLs the input makes the service call, by JSON pointer (held to the outbound policy when saved). */
  urls(input: Input): [pointer: string, url: string | undefined][]
  /** The JSON to store for `input` (throws 422), given what is stored now (null: nothing). */
  store(tenant: Tenant, input: Input, before: string | null): string
  /** What the workspace shows of it (secrets only as `*_set` flags). */
  view(stored: string): unknown
  /** `stored` with its stale secrets sealed again under the current server secret, or null when none is stale. */
  reseal(tenant: Tenant, stored: string): string | null
}

/**
 * What the sections that keep secrets share (services.workspaces.sealedSettings; sealed-settings.ts): the
 * tenant's stored JSON read and parsed, its secrets (the fields named `*_sealed`) sealed and opened under the
 * workspace id, mode and column, shown as `*_set` flags and sealed again after a server secret rotation.
 */
export interface SealedSettings<Stored> {
  /** The tenant's section as stored, or null when none is set. */
  load(tenant: Tenant): Promise<Stored | null>
  parse(json: string | null): Stored | null
  seal(tenant: Tenant, secret: string): string
  open(tenant: Tenant, sealed: string): string
  open(tenant: Tenant, sealed: string | null): string | null
  /** The shown fields in their order, each `x_sealed` as `x_set` (whether it holds a secret); null when none is set. */
  view(json: string): Record<string, unknown> | null
  /** SettingsSection.reseal: every sealed field sealed again when one of them is stale, else null. */
  reseal(tenant: Tenant, json: string): string | null
}
