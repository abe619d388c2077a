import { Badge, type Tone } from '../../ui/components.js'

export const LOGS_PATH = '/dashboard/developers/logs'

export const statusTone = (status: number): Tone => (status >= 500 ? 'bad' : status >= 400 ? 'warn' : status >= 300 ? 'info' : 'good')

export function StatusBadge({ status }: { status: number }) {
  return <Badge tone={statusTone(status)}>{status}</Badge>
}

export const formatMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`)

export const logHref = (requestId: string): string => `${LOGS_PATH}/${encodeURIComponent(requestId)}`
