import type { components } from '../../api/schema.js'
import { Badge, type Tone } from '../../ui/components.js'
import { statusLabel } from '../../i18n/index.js'

export type KnowledgeBase = components['schemas']['KnowledgeBase']
export type KnowledgeDocument = components['schemas']['KnowledgeDocument']
export type KnowledgeCrawl = components['schemas']['KnowledgeCrawl']

const DOC_TONE: Record<string, Tone> = { queued: 'neutral', processing: 'info', ready: 'good', failed: 'bad', completed: 'good', running: 'info' }

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={DOC_TONE[status] ?? 'neutral'}>{statusLabel(status)}</Badge>
}

/** An excerpt whose matched words the API marks «like this»: shown as <mark>. */
export function Excerpt({ text }: { text: string }) {
  const parts = text.split(/«([^»]*)»/)
  return <>{parts.map((p, i) => (i % 2 === 1 ? <mark>{p}</mark> : p))}</>
}

export const formatBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`)
