import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
export const LeadStatus = Type.Union([Type.Literal('new'), Type.Literal('contacted'), Type.Literal('qualified'), Type.Literal('converted'), Type.Literal('unqualified'), Type.Literal('lost')], {
  title: 'LeadStatus',
  description: 'docs/leads.md has the machine.',
})
export const LeadSource = Type.Union([Type.Literal('conversation'), Type.Literal('bot'), Type.Literal('voice_call'), Type.Literal('api'), Type.Literal('import')], { title: 'LeadSource' })
const SyncStatus = Type.Union([Type.Literal('never'), Type.Literal('pending'), Type.Literal('synced'), Type.Literal('failed')], { title: 'LeadSyncStatus' })

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })

const Properties = Type.Record(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' }), Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]), {
  maxProperties: 50,
  additionalProperties: false,
  description: 'Up to 50 custom properties (snake_case keys; strings ≤ 1000 characters, numbers, booleans).',
})
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, uniqueItems: true })

const Criterion = Type.Object(
  {
    name: Type.Union([Type.Literal('budget'), Type.Literal('authority'), Type.Literal('need'), Type.Literal('timeline')]),
    met: Type.Boolean(),
    evidence: Type.Array(
      Type.Object({
        source: Type.Union([Type.Literal('message'), Type.Literal('answer'), Type.Literal('lead')], { description: 'A customer message, an answer given to qualifyLead, or a field of the lead.' }),
        message_id: Nullable(Type.String()),
        conversation_id: Nullable(Type.String()),
        excerpt: Type.String(),
      }),
    ),
  },
  { title: 'LeadQualificationCriterion' },
)
export const Qualification = Type.Object(
  {
    framework: Type.Literal('BANT'),
    criteria: Type.Array(Criterion),
    score: Type.Integer({ minimum: 0, maximum: 100, description: '25 per criterion met.' }),
    recommended_status: LeadStatus,
    applied: Type.Boolean({ description: 'Whether the recommended status was applied.' }),
    evaluated_at: DateTime,
  },
  { $id: 'LeadQualification' },
)
export type QualificationT = Static<typeof Qualification>

export const Lead = Type.Object(
  {
    id: Type.String({ examples: ['lead_01JD0000000000000000000000'] }),
    object: Type.Literal('lead'),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String({ description: 'E.164.' })),
    company: Nullable(Type.String()),
    title: Nullable(Type.String()),
    source: LeadSource,
    source_id: Nullable(Type.String({ description: 'The conversation, bot or call the lead came from.' })),
    owner_id: Nullable(Type.String({ description: 'An active workspace member (mem_…).' })),
    status: LeadStatus,
    score: Type.Object({ score: Type.Integer({ minimum: 0, maximum: 100 }), factors: Type.Array(Type.String()) }, { title: 'LeadScoreDetail' }),
    qualification: Nullable(Qualification),
    properties: Properties,
    tags: Tags,
    crm: Type.Object(
      {
        provider: Nullable(Type.String()),
        external_id: Nullable(Type.String()),
        last_synced_at: Nullable(DateTime),
        sync_status: SyncStatus,
        last_error: Nullable(Type.String()),
      },
      { title: 'LeadCrmLink' },
    ),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Lead' },
)
export type LeadT = Static<typeof Lead>

const leadFields = {
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  phone: Type.Optional(
    Nullable(Type.String({ minLength: 3, maxLength: 40, description: 'Any common format; stored as E.164 (a number without +country code is read in the workspace default region when possible).' })),
  ),
  company: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  title: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  owner_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  properties: Type.Optional(Properties),
  tags: Type.Optional(Tags),
}
export const CreateLeadBody = Type.Object(
  {
    ...leadFields,
    source: Type.Optional(LeadSource),
    source_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'With source conversation: the conversation (conv_…), whose contact fills empty fields and whose messages count in the score.' }),
    ),
  },
  { additionalProperties: false, title: 'CreateLeadBody' },
)
export type CreateLeadBodyT = Static<typeof CreateLeadBody>
export const UpdateLeadBody = Type.Object(leadFields, { additionalProperties: false, minProperties: 1, title: 'UpdateLeadBody' })
export type UpdateLeadBodyT = Static<typeof UpdateLeadBody>

export const LeadList = Page(Lead, 'Lead')
export const ListLeadsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(LeadStatus),
    owner_id: Type.Optional(Type.String({ maxLength: 64 })),
    source: Type.Optional(LeadSource),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    min_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    max_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    updated_after: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
)
export type ListLeadsQueryT = Static<typeof ListLeadsQuery>

export const DeletedLead = Type.Object({ id: Type.String(), object: Type.Literal('lead'), deleted: Type.Literal(true) }, { $id: 'DeletedLead' })

export const UpdateLeadStatusBody = Type.Object(
  { status: LeadStatus, reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
  { additionalProperties: false, title: 'UpdateLeadStatusBody' },
)
export const QualifyLeadBody = Type.Object(
  {
    answers: Type.Optional(
      Type.Object(
        {
          budget: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          authority: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          need: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          timeline: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
        },
        { additionalProperties: false, description: 'What a salesperson learned, per criterion; each counts as met with itself as evidence.' },
      ),
    ),
    apply: Type.Optional(Type.Boolean({ description: 'Move the lead to the recommended status when the machine allows it (default false).' })),
  },
  { additionalProperties: false, title: 'QualifyLeadBody' },
)
export type QualifyLeadBodyT = Static<typeof QualifyLeadBody>

export const Activity = Type.Object(
  {
    id: Type.String({ examples: ['act_01JD0000000000000000000000'] }),
    object: Type.Literal('lead_activity'),
    lead_id: Type.String(),
    type: Type.Union(
      [
        Type.Literal('note'),
        Type.Literal('email'),
        Type.Literal('call'),
        Type.Literal('meeting'),
        Type.Literal('task'),
        Type.Literal('status_change'),
        Type.Literal('qualification'),
        Type.Literal('sync'),
      ],
      { title: 'LeadActivityType' },
    ),
    subject: Nullable(Type.String()),
    body: Nullable(Type.String()),
    data: Type.Object({}, { additionalProperties: true }),
    actor: Type.String({ description: 'The API key that recorded it, or `system`.' }),
    occurred_at: DateTime,
    created_at: DateTime,
  },
  { $id: 'LeadActivity' },
)
export type ActivityT = Static<typeof Activity>
export const ActivityList = Page(Activity, 'LeadActivity')
export const ListActivitiesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export const CreateActivityBody = Type.Object(
  {
    type: Type.Union([Type.Literal('note'), Type.Literal('email'), Type.Literal('call'), Type.Literal('meeting'), Type.Literal('task')], {
      title: 'LeadManualActivityType',
    }),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
    occurred_at: Type.Optional(DateTime),
    data: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]), { maxProperties: 20 })),
  },
  { additionalProperties: false, title: 'CreateLeadActivityBody' },
)
export type CreateActivityBodyT = Static<typeof CreateActivityBody>
