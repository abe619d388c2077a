import type { components } from '../../api/schema.js'
import { Badge, type Tone } from '../../ui/components.js'
import { statusLabel } from '../../i18n/index.js'

export type Lead = components['schemas']['Lead']
export type LeadStatus = components['schemas']['LeadStatus']
export type LeadActivity = components['schemas']['LeadActivity']

export const STATUSES: LeadStatus[] = ['new', 'contacted', 'qualified', 'converted', 'unqualified', 'lost']
/** The status machine of docs/leads.md: the moves the API allows from each status. */
export const MOVES: Record<LeadStatus, LeadStatus[]> = {
  new: ['contacted', 'qualified', 'unqualified', 'lost'],
  contacted: ['qualified', 'unqualified', 'lost'],
  qualified: ['converted', 'unqualified', 'lost'],
  converted: [],
  unqualified: ['new', 'contacted'],
  lost: ['new', 'contacted'],
}

const TONE: Record<string, Tone> = {
  new: 'info',
  contacted: 'info',
  qualified: 'good',
  converted: 'good',
  unqualified: 'neutral',
  lost: 'bad',
  never: 'neutral',
  pending: 'warn',
  synced: 'good',
  failed: 'bad',
}
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONE[status] ?? 'neutral'}>{statusLabel(status)}</Badge>
}

/** A score factor as the API words it, `+10 company given (Engines)`: its points and its reason. */
export function parseFactor(f: string): { points: number | null; reason: string } {
  const m = /^([+-]\d+)\s+(.*)$/.exec(f)
  return m ? { points: Number(m[1]), reason: m[2]! } : { points: null, reason: f }
}

export function ScoreBadge({ score }: { score: number }) {
  return <Badge tone={score >= 60 ? 'good' : score >= 30 ? 'warn' : 'neutral'}>{score}</Badge>
}
