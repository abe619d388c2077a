import type { FastifyInstance } from 'fastify'
import type { ModuleMigration } from './db/migrations.js'
import type { ErrorSpec } from './errors.js'
import type { BearerResolver } from './auth/bearer-tokens.js'
import type { ScopeResource } from './auth/scopes.js'
import type { AnyRoute } from './http/define-route.js'
import type { EventDelivery } from './http/openapi-webhooks.js'
import type { Kernel } from './kernel.js'
import type { Services } from './services.js'
import type { Tenant } from './tenant.js'
import type { ModuleGauge } from './metrics.js'

export interface ModuleHealth {
  status: 'ok' | 'degraded' | 'down'
  detail?: string
  [k: string]: unknown
}

/** What a fixture may use: workspace A's keys and a request function (the test app's, in tests). */
export interface FixtureClient {
  a: { workspaceId: string; live: string; test: string }
  request(opts: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object; key?: string | null }): Promise<{ statusCode: number; body: string }>
  /** Runs every due job now (a fixture whose resource exists only after its worker ran, e.g. a run waiting for approval). */
  drainJobs(): Promise<void>
}

/**
 * For the shared route-table suites (security, cursors, aliases), exported as FIXTURES (per operationId with path
 * parameters) by a module's `<module>.fixtures.ts`, which only test/fixtures.ts loads: make a resource in workspace A (live)
 * and return the path parameters addressing it — or `{ params, body }` when the operation needs a valid
 * body to get past validation.
 */
export type Fixture = (c: FixtureClient) => Promise<Record<string, string> | { params: Record<string, string>; body?: unknown }>

/** The person a data-subject request is about: at least one identifier (email lower-cased, phone E.164). */
export interface DataSubject {
  email: string | null
  phone: string | null
  external_id: string | null
  /**
   * Full names the person is known by (from their own records: a conversation's contact, a lead), filled
   * in by the DSAR job through the modules' `names` hooks before any module is searched; a mention of one
   * in someone else's text counts as a mention of them (kernel/pii/pii.mentions.ts says which names count).
   */
  names?: string[]
}

/** What one module holds about a data subject (a DSAR access request and its export). */
export interface SubjectRecords {
  /** Records by kind (`conversations`, `messages`, `leads`…), each as the API shows it (JSON-ready). */
  records: Record<string, unknown[]>
  /** Stored files about the subject (call recordings, SMS / WhatsApp media): blob keys, exported beside the JSON. */
  files: { name: string; key: string; contentType: string }[]
  /** The ids of every record found: audit entries about them are exported too. */
  ids: string[]
}

/** A module's part in data-subject requests (docs/compliance.md "What each module does"). */
export interface ModulePrivacy {
  collect(kernel: Kernel, services: Services, tenant: Tenant, subject: DataSubject): Promise<SubjectRecords>
  /** Deletes or anonymises what `collect` finds (documented per module); idempotent: a second run finds nothing. */
  erase(kernel: Kernel, services: Services, tenant: Tenant, subject: DataSubject): Promise<{ deleted: number; anonymised: number }>
  /** The names the subject's own records give them (a conversation's contact name, a lead's name). */
  names?(kernel: Kernel, services: Services, tenant: Tenant, subject: DataSubject): Promise<string[]>
  /** Applies corrected identifiers or name to what `collect` finds; returns how many records changed. */
  rectify?(kernel: Kernel, services: Services, tenant: Tenant, subject: DataSubject, changes: { email?: string; phone?: string; name?: string }): Promise<number>
}

/** One class of data a retention policy governs (docs/compliance.md "Retention"). */
export interface RetentionClass {
  /** `messages`, `call_recordings`, `transcripts`, `webhook_deliveries`, … */
  name: string
  description: string
  /**
   * Event types whose payload copies this class's content (`message.created` carries a message's text):
   * outbox events of these types older than the same cutoff go with it, with their webhook deliveries, and
   * a dry run counts them in the class.
   */
  events?: string[]
  /** The shortest retention a policy may set, in days. */
  minimumDays: number
  /** How many items older than `before` (ISO time) the tenant has: what a purge with that cutoff deletes. */
  count(kernel: Kernel, tenant: Tenant, before: string): Promise<number>
  /** Deletes up to `limit` of them, oldest first, in short transactions; returns how many. */
  purge(kernel: Kernel, tenant: Tenant, before: string, limit: number): Promise<number>
}

/**
 * A module's part in the access-review evidence report (compliance; docs/compliance.md "Evidence"): who holds
 * access to the tenant through credentials the module issues besides API keys and memberships (OAuth
 * authorizations), as figures and tables already worded for the report.
 */
export interface AccessReviewPart {
  summary: { label: string; value: string }[]
  sections: { heading: string; text?: string; table: { columns: string[]; rows: string[][] } }[]
}

/**
 * A module: its migrations, its routes, and `init`, which builds its service into the container and
 * registers its jobs, event types and event subscribers with the kernel.
 */
export interface ModuleDefinition {
  name: string
  /** The module's error catalogue (`<module>.errors.ts`, made with `defineErrors`). */
  errors?: Record<string, ErrorSpec>
  /**
   * The resources its operations guard with granular scopes, each giving `<resource>:read` and `<resource>:write`
   * (kernel/auth/scopes.ts assembles them in MODULES order, after the broad read, write and admin). A resource is
   * one module's; any module's routes may require it (the agents module's routes require bots' write scope).
   */
  scopes?: ScopeResource[]
  /** Modules whose services this one calls (`services.<name>`); each must come earlier in MODULES. */
  uses?: string[]
  migrations: ModuleMigration[]
  routes: AnyRoute[]
  init(kernel: Kernel, services: Services): void
  /** A real check of the module's own dependencies (tables, queues, providers). */
  health?(kernel: Kernel, services: Services): Promise<ModuleHealth>
  /** Counters this module adds to the workspace usage report, per UTC day (YYYY-MM-DD) in [from, to]. */
  usage?(kernel: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]>
  /** How this module delivers events to receivers (the OpenAPI `webhooks` section); at most one module. */
  eventDelivery?: EventDelivery
  /** Re-seal the credentials this module stores under the current server secret; returns how many rows changed. */
  reseal?(kernel: Kernel, services: Services): Promise<number>
  /**
   * HTTP endpoints a third party calls that are not API operations (a carrier's status callbacks): mounted
   * outside the base URLs, not in the OpenAPI document; each authenticates its caller itself (a signature)
   * and answers errors as problems like the rest. Registered in their own Fastify scope.
   */
  callbacks?(app: FastifyInstance, kernel: Kernel, services: Services): Promise<void> | void
  /**
   * Bearer credentials besides API keys that this module issues (OAuth access tokens): the kernel asks
   * the resolver for a token it claims and authenticates the request as its principal (auth/bearer-tokens.ts).
   */
  bearer?(kernel: Kernel, services: Services): BearerResolver
  /** Periodic housekeeping (every worker, every 5 minutes): e.g. make sure a recurring job is queued. */
  maintenance?(kernel: Kernel, services: Services): Promise<void>
  /** Its part in data-subject requests: find, export and erase a person's data. */
  privacy?: ModulePrivacy
  /**
   * Instead of `privacy`: the module's tables hold nothing about the people a workspace deals with (the
   * subjects of data-subject requests). Each column whose name looks personal (test/structure.test.ts), as
   * `table.column`, with why it is not theirs (a bot's name; a member's own sign-in email, which goes with
   * the member). A module with tables declares one or the other; the structure test fails otherwise.
   */
  noSubjectData?: Record<string, string>
  /**
   * Its part in the access-review evidence report: compliance asks every module that has one, in MODULES order,
   * and reads nothing of the module's own. `memberEmail` names a member as the report does.
   */
  accessReview?(kernel: Kernel, services: Services, tenant: Tenant, memberEmail: (memberId: string) => string): Promise<AccessReviewPart>
  /** The classes of its data a retention policy can govern. */
  retention?: RetentionClass[]
  /** Gauges reported on GET /metrics at scrape time (names prefixed `svc_<module>_`). */
  metrics?(kernel: Kernel, services: Services): Promise<ModuleGauge[]>
}

export const defineModule = (m: ModuleDefinition): ModuleDefinition => m
