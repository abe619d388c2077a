import type { components } from '../../api/schema.js'
import { Badge, type Tone } from '../../ui/components.js'
import { statusLabel } from '../../i18n/index.js'

export type AuditEntry = components['schemas']['AuditEntry']
export type ActorType = components['schemas']['AuditActor']['type']
export type Dsar = components['schemas']['DsarRequest']
export type DsarStatus = components['schemas']['DsarStatus']
export type DsarType = Dsar['type']
export type RetentionPolicies = components['schemas']['RetentionPolicies']

export const ACTOR_TYPES: ActorType[] = ['member', 'api_key', 'system', 'cli', 'anonymous', 'oauth_app']
export const DSAR_TYPES: DsarType[] = ['access', 'erasure', 'rectification']
export const DSAR_STATUSES: DsarStatus[] = ['received', 'in_progress', 'completed', 'rejected']

const DSAR_TONE: Record<DsarStatus, Tone> = { received: 'info', in_progress: 'info', completed: 'good', rejected: 'bad' }
/** An API value (status, request type, actor type) in words of the reader's language. */
export const label = (s: string) => statusLabel(s)
/** The label with a capital first letter (headings, form labels). */
export const title = (s: string) => label(s).replace(/^./, (c) => c.toUpperCase())

export function DsarStatusBadge({ status }: { status: DsarStatus }) {
  return <Badge tone={DSAR_TONE[status]}>{statusLabel(status)}</Badge>
}

export const subjectText = (s: Dsar['subject']) => [s.email, s.phone, s.external_id].filter(Boolean).join(', ') || '—'

/** A datetime-local value (the browser's zone) as an ISO instant, or undefined. */
export const isoOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined)

export type PiiRedaction = components['schemas']['PiiRedaction']
export type PiiEntity = components['schemas']['PiiEntity']
export type Evidence = components['schemas']['ComplianceEvidence']
export type EvidenceKind = Evidence['kind']

/** The file name the server gave in Content-Disposition, else `fallback`. */
export const fileNameOf = (res: Response, fallback: string) => /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallback
