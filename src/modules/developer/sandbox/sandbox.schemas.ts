import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })

/** What the seeding job makes, by kind: the counts a sandbox reports. */
export const SEEDED_KINDS = ['webhook_endpoints', 'tags', 'knowledge_bases', 'knowledge_documents', 'bots', 'agents', 'leads', 'conversations', 'messages'] as const
export type SeededKind = (typeof SEEDED_KINDS)[number]

const SeededCounts = Type.Object(Object.fromEntries(SEEDED_KINDS.map((k) => [k, Type.Integer({ minimum: 0 })])) as Record<SeededKind, ReturnType<typeof Type.Integer>>, {
  title: 'SandboxSeededCounts',
  description: 'How many sample objects of each kind the seeding made so far (all of them once `status` is ready).',
})

const sandboxFields = {
  id: Type.String({ examples: ['sbx_01JD0000000000000000000000'] }),
  object: Type.Literal('sandbox_workspace'),
  name: Type.String(),
  workspace_id: Type.String({ description: 'The sandbox’s own workspace (ws_…): what its test key acts on.' }),
  status: oneOf(['seeding', 'ready', 'failed'] as const, { title: 'SandboxWorkspaceStatus', description: 'seeding → ready, or failed (`error` says why; what was made stays).' }),
  error: Nullable(Type.String()),
  base_url: Type.String({ description: 'The sandbox base URL its svc_test_ key works on.' }),
  api_key: Type.Object(
    { id: Type.String(), prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }), scopes: Type.Array(Type.String()) },
    { title: 'SandboxApiKey', description: 'The sandbox’s test key (the secret itself only in the create response).' },
  ),
  playground_url: Type.String({ description: 'The Webhook Playground inbox the sample webhook endpoint delivers to (no key needed to read it).' }),
  seeded: SeededCounts,
  created_at: DateTime,
  ready_at: Nullable(DateTime),
}

export const SandboxWorkspace = Type.Object(sandboxFields, { $id: 'SandboxWorkspace' })
export type SandboxWorkspaceT = Static<typeof SandboxWorkspace>

export const CreatedSandboxWorkspace = Type.Object(
  { ...sandboxFields, test_key: Type.String({ description: 'The svc_test_ key of the sandbox. Shown once: only its hash is kept.' }) },
  { $id: 'CreatedSandboxWorkspace' },
)
export type CreatedSandboxWorkspaceT = Static<typeof CreatedSandboxWorkspace>

export const CreateSandboxWorkspaceBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Default: “Sandbox of <your workspace’s name>”.' })) },
  { additionalProperties: false, title: 'CreateSandboxWorkspaceBody' },
)
export type CreateSandboxWorkspaceBodyT = Static<typeof CreateSandboxWorkspaceBody>

export const SandboxWorkspaceList = Page(SandboxWorkspace, 'SandboxWorkspace')
export const ListSandboxWorkspacesQuery = Type.Object({ ...PageQuery, status: Type.Optional(oneOf(['seeding', 'ready', 'failed'] as const)) }, { additionalProperties: false })
export type ListSandboxWorkspacesQueryT = Static<typeof ListSandboxWorkspacesQuery>
